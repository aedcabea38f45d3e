import { SandboxError } from '../../errors.js';

/** SNS's errors as the query API returns them. */
export const snsErrors = {
  topicNotFound: () => new SandboxError('NotFound', 'Topic does not exist', 404),
  subscriptionNotFound: () => new SandboxError('NotFound', 'Subscription does not exist', 404),
  resourceNotFound: () => new SandboxError('ResourceNotFound', 'Resource does not exist', 404),
  invalidParameter: (message: string) =>
    new SandboxError('InvalidParameter', `Invalid parameter: ${message}`, 400),
  tagLimit: () =>
    new SandboxError(
      'TagLimitExceeded',
      'Could not complete request: tag quota of per resource exceeded',
      400,
    ),
  invalidAction: (action: string) =>
    new SandboxError('InvalidAction', `The action ${action} is not valid for this web service.`, 400),
};
