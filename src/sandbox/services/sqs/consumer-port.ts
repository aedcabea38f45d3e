import type { SqsConsumer } from '../../ports/index.js';
import type { SqsOptions } from './call.js';
import { receive, remove, systemAttributes } from './queue-messages.js';
import type { QueueStore } from './store.js';

/** Receiving for other modules, through the same rules as ReceiveMessage. */
export function consumerPort(store: QueueStore, options: SqsOptions): SqsConsumer {
  return {
    async receive(queueArn, max) {
      const queue = store.byArn(queueArn);
      if (!queue) return undefined;
      const visibility = Number(queue.attributes.VisibilityTimeout ?? 30);
      const received = await receive(store, queue, { max, visibility, now: options.now() });
      return received.map((message) => ({
        messageId: message.id,
        receiptHandle: message.receiptHandle!,
        body: message.body,
        md5OfBody: message.md5,
        attributes: systemAttributes(message),
        messageAttributes: message.messageAttributes ?? {},
      }));
    },
    visibleCount(queueArn) {
      const now = options.now();
      return store.byArn(queueArn)?.messages.filter((message) => message.visibleAt <= now).length ?? 0;
    },
    async delete(queueArn, receiptHandles) {
      const queue = store.byArn(queueArn);
      if (queue) await remove(store, queue, receiptHandles);
    },
    attributes: (queueArn) => store.byArn(queueArn)?.attributes,
  };
}
