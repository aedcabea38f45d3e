import { SandboxError } from '../../errors.js';

/**
 * SQS errors as its JSON protocol returns them: the short code in `__type`, and the legacy
 * query code in `x-amzn-query-error` (the SDK exposes it as `Code`, awsQueryCompatible).
 */
function sqsError(code: string, queryCode: string, message: string, status = 400): SandboxError {
  return new SandboxError(code, message, status, {
    headers: { 'x-amzn-query-error': `${queryCode};${status >= 500 ? 'Receiver' : 'Sender'}` },
  });
}

export const sqsErrors = {
  nonExistentQueue: () =>
    sqsError(
      'QueueDoesNotExist',
      'AWS.SimpleQueueService.NonExistentQueue',
      'The specified queue does not exist.',
    ),
  queueNameExists: (name: string) =>
    sqsError(
      'QueueNameExists',
      'QueueAlreadyExists',
      `A queue already exists with the same name and a different value for attribute(s) (${name})`,
    ),
  queueDeletedRecently: () =>
    sqsError(
      'QueueDeletedRecently',
      'AWS.SimpleQueueService.QueueDeletedRecently',
      'You must wait 60 seconds after deleting a queue before you can create another with the same name.',
    ),
  invalidAttributeName: (name: string) =>
    sqsError('InvalidAttributeName', 'InvalidAttributeName', `Unknown Attribute ${name}.`),
  invalidAttributeValue: (message: string) =>
    sqsError('InvalidAttributeValue', 'InvalidAttributeValue', message),
  invalidParameterValue: (message: string) =>
    sqsError('InvalidParameterValue', 'InvalidParameterValue', message),
  missingParameter: (name: string) =>
    sqsError('MissingParameter', 'MissingParameter', `The request must contain the parameter ${name}.`),
  receiptHandleIsInvalid: (handle: string) =>
    sqsError(
      'ReceiptHandleIsInvalid',
      'ReceiptHandleIsInvalid',
      `The input receipt handle "${handle}" is not a valid receipt handle.`,
    ),
  invalidAction: (operation: string) =>
    sqsError('InvalidAction', 'InvalidAction', `The action ${operation} is not valid for this endpoint.`),
  messageNotInflight: () =>
    sqsError(
      'MessageNotInflight',
      'AWS.SimpleQueueService.MessageNotInflight',
      'The message referred to is not in flight.',
    ),
  emptyBatch: () =>
    sqsError(
      'EmptyBatchRequest',
      'AWS.SimpleQueueService.EmptyBatchRequest',
      'There should be at least one SendMessageBatchRequestEntry in the request.',
    ),
  tooManyEntries: (count: number) =>
    sqsError(
      'TooManyEntriesInBatchRequest',
      'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
      `Maximum number of entries per request are 10. You have sent ${count}.`,
    ),
  batchEntryIdsNotDistinct: () =>
    sqsError(
      'BatchEntryIdsNotDistinct',
      'AWS.SimpleQueueService.BatchEntryIdsNotDistinct',
      'Two or more batch entries in the request have the same Id.',
    ),
  tooManyTags: () =>
    sqsError('InvalidParameterValue', 'InvalidParameterValue', 'Too many tags added for queue.'),
};
