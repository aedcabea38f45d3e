import { SandboxError } from '../../errors.js';

/** IAM's error codes and HTTP statuses, with AWS's wording. */
export const iamErrors = {
  noSuchEntity: (message: string) => new SandboxError('NoSuchEntity', message, 404),
  alreadyExists: (message: string) => new SandboxError('EntityAlreadyExists', message, 409),
  malformedPolicy: (message: string) => new SandboxError('MalformedPolicyDocument', message, 400),
  limitExceeded: (message: string) => new SandboxError('LimitExceeded', message, 409),
  deleteConflict: (message: string) => new SandboxError('DeleteConflict', message, 409),
  validation: (message: string) => new SandboxError('ValidationError', message, 400),
  invalidInput: (message: string) => new SandboxError('InvalidInput', message, 400),
  invalidAction: (action: string) =>
    new SandboxError('InvalidAction', `Could not find operation ${action} for version 2010-05-08`, 400),
};
