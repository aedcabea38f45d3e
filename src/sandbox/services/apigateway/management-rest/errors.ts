import { SandboxError } from '../../../errors.js';

/** API Gateway's control-plane errors, as its REST API answers them. */
export const apigwErrors = {
  notFound: (message: string) => new SandboxError('NotFoundException', message, 404),
  conflict: (message: string) => new SandboxError('ConflictException', message, 409),
  badRequest: (message: string) => new SandboxError('BadRequestException', message, 400),
};
