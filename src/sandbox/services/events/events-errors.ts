import { SandboxError } from '../../errors.js';

/** EventBridge's errors as its JSON 1.1 API returns them. */
export const eventsErrors = {
  busNotFound: (name: string) =>
    new SandboxError('ResourceNotFoundException', `Event bus ${name} does not exist.`, 400),
  ruleNotFound: (name: string, bus: string) =>
    new SandboxError('ResourceNotFoundException', `Rule ${name} does not exist on EventBus ${bus}.`, 400),
  resourceNotFound: (arn: string) =>
    new SandboxError('ResourceNotFoundException', `Resource ${arn} does not exist.`, 400),
  busExists: (arn: string) =>
    new SandboxError('ResourceAlreadyExistsException', `Event bus ${arn} already exists.`, 400),
  validation: (message: string) => new SandboxError('ValidationException', message, 400),
  invalidPattern: (message: string) => new SandboxError('InvalidEventPatternException', message, 400),
  limitExceeded: (message: string) => new SandboxError('LimitExceededException', message, 400),
  unknownOperation: (operation: string) =>
    new SandboxError('UnknownOperationException', `Unknown operation ${operation}`, 400),
};
