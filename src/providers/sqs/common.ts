import { awsErrorCode } from '../../aws/error-class.js';

const MISSING_QUEUE = new Set(['QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue']);

/** SQS's "no such queue", under either of the codes the JSON protocol carries. */
export function isQueueMissing(error: unknown): boolean {
  const name = error instanceof Error ? error.name : undefined;
  return MISSING_QUEUE.has(awsErrorCode(error) ?? '') || MISSING_QUEUE.has(name ?? '');
}
