import { SandboxError } from '../../errors.js';

/** Lambda's errors as the REST-JSON API returns them. */
export const lambdaErrors = {
  functionNotFound: (arn: string) =>
    new SandboxError('ResourceNotFoundException', `Function not found: ${arn}`, 404),
  notFound: (message: string) => new SandboxError('ResourceNotFoundException', message, 404),
  conflict: (message: string) => new SandboxError('ResourceConflictException', message, 409),
  functionExists: (name: string) =>
    new SandboxError('ResourceConflictException', `Function already exist: ${name}`, 409),
  updateInProgress: (arn: string) =>
    new SandboxError(
      'ResourceConflictException',
      `The operation cannot be performed at this time. An update is in progress for resource: ${arn}`,
      409,
    ),
  pending: () =>
    new SandboxError(
      'ResourceConflictException',
      'The operation cannot be performed at this time. The function is currently in the following state: Pending',
      409,
    ),
  invalid: (message: string) => new SandboxError('InvalidParameterValueException', message, 400),
  roleNotAssumable: () =>
    new SandboxError(
      'InvalidParameterValueException',
      'The role defined for the function cannot be assumed by Lambda.',
      400,
    ),
  preconditionFailed: () =>
    new SandboxError(
      'PreconditionFailedException',
      'The Revision Id provided does not match the latest Revision Id. Call the GetFunction/GetAlias API to retrieve the latest Revision Id',
      412,
    ),
  /** A member outside its modelled constraint (pattern, range), rejected before Lambda looks. */
  validation: (member: string, value: unknown, constraint: string) =>
    new SandboxError(
      'ValidationException',
      `1 validation error detected: Value '${String(value)}' at '${member}' failed to satisfy constraint: ${constraint}`,
      400,
    ),
  unknownOperation: () => new SandboxError('UnknownOperationException', 'Unknown operation', 400),
};
