import { SandboxError } from '../../errors.js';

/** Cloud Control API exceptions (raised by the API call itself, not by a handler). */
export const ccErrors = {
  typeNotFound: (type: string) =>
    new SandboxError('TypeNotFoundException', `The type '${type}' cannot be found.`, 400),
  resourceNotFound: (type: string, identifier: string) =>
    new SandboxError(
      'ResourceNotFoundException',
      `Resource of type '${type}' with identifier '${identifier}' was not found.`,
      400,
    ),
  requestTokenNotFound: (token: string) =>
    new SandboxError('RequestTokenNotFoundException', `Request with token ${token} was not found`, 400),
  clientTokenConflict: (token: string) =>
    new SandboxError(
      'ClientTokenConflictException',
      `The client token ${token} was used before with a different request.`,
      400,
    ),
  resourceConflict: (type: string, identifier: string, token: string) =>
    new SandboxError(
      'ResourceConflictException',
      `Resource of type '${type}' with identifier '${identifier}' has a conflict. Reason: Another request with token ${token} is in progress for the resource.`,
      400,
    ),
  notCancellable: (token: string) =>
    new SandboxError(
      'ConcurrentModificationException',
      `Request with token ${token} cannot be cancelled: it has already completed.`,
      400,
    ),
  unsupportedAction: (type: string, action: string) =>
    new SandboxError(
      'UnsupportedActionException',
      `Resource type ${type} does not support ${action} action`,
      400,
    ),
  invalidRequest: (message: string) => new SandboxError('InvalidRequestException', message, 400),
  unknownOperation: (operation: string) =>
    new SandboxError('UnknownOperationException', `Unknown operation ${operation}`, 400),
};
