import { SandboxError } from '../../errors.js';

/** Secrets Manager's errors as its JSON 1.1 API returns them. */
export const secretsErrors = {
  notFound: () =>
    new SandboxError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.", 400),
  exists: (name: string) =>
    new SandboxError(
      'ResourceExistsException',
      `The operation failed because the secret ${name} already exists.`,
      400,
    ),
  pendingDeletionName: () =>
    new SandboxError(
      'InvalidRequestException',
      "You can't create this secret because a secret with this name is already scheduled for deletion.",
      400,
    ),
  markedForDeletion: () =>
    new SandboxError(
      'InvalidRequestException',
      "You can't perform this operation on the secret because it was marked for deletion.",
      400,
    ),
  invalidParameter: (message: string) => new SandboxError('InvalidParameterException', message, 400),
  invalidRequest: (message: string) => new SandboxError('InvalidRequestException', message, 400),
  unknownOperation: (operation: string) =>
    new SandboxError('UnknownOperationException', `Unknown operation ${operation}`, 400),
};
