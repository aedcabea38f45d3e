import type { Storage } from '../../storage/storage.js';
import { policyAttachments, type PolicyAttachments } from '../policy-attachments.js';
import { mergeAttributes, validateAttributes } from './attributes.js';
import type { SqsOptions } from './call.js';
import { queueAtUrl } from './queue-resource.js';
import type { QueueRecord, QueueStore } from './store.js';

export const QUEUE_POLICY = 'AWS::SQS::QueuePolicy';

/**
 * AWS::SQS::QueuePolicy on the SQS module's store: sets the Policy attribute of each queue
 * (named by URL) in Queues, as SetQueueAttributes does; deleting it clears the attribute.
 */
export function queuePolicyResources(
  storage: Storage,
  store: QueueStore,
  options: SqsOptions,
): Promise<PolicyAttachments> {
  const queueAt = (url: string, region: string, accountId: string): QueueRecord | undefined =>
    queueAtUrl(store, url, region, accountId);
  return policyAttachments(storage, {
    type: QUEUE_POLICY,
    listProperty: 'Queues',
    namespace: 'sqs/queue-policies',
    noun: 'Queue',
    exists: (url, region, accountId) => queueAt(url, region, accountId) !== undefined,
    async apply(url, policy, region, accountId) {
      const queue = queueAt(url, region, accountId)!;
      const changes = { Policy: policy ?? '' };
      validateAttributes(changes, { creating: false, fifo: queue.attributes.FifoQueue === 'true' });
      queue.attributes = mergeAttributes(queue.attributes, changes);
      queue.lastModifiedAt = options.now();
      await store.save(queue);
    },
  });
}
