import { SandboxError } from '../../errors.js';

/** CloudWatch Logs' errors as its JSON 1.1 API returns them. */
export const logsErrors = {
  groupNotFound: () =>
    new SandboxError('ResourceNotFoundException', 'The specified log group does not exist.', 400),
  filterNotFound: () =>
    new SandboxError('ResourceNotFoundException', 'The specified filter does not exist.', 400),
  streamNotFound: () =>
    new SandboxError('ResourceNotFoundException', 'The specified log stream does not exist.', 400),
  groupExists: () =>
    new SandboxError('ResourceAlreadyExistsException', 'The specified log group already exists', 400),
  streamExists: () =>
    new SandboxError('ResourceAlreadyExistsException', 'The specified log stream already exists', 400),
  policyNotFound: (name: string) =>
    new SandboxError('ResourceNotFoundException', `Policy with name [${name}] does not exist`, 400),
  invalidParameter: (message: string) => new SandboxError('InvalidParameterException', message, 400),
  limitExceeded: (message: string) => new SandboxError('LimitExceededException', message, 400),
  unknownOperation: (operation: string) =>
    new SandboxError('UnknownOperationException', `Unknown operation ${operation}`, 400),
};
