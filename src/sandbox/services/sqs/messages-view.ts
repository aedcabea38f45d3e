import type { QueueStore } from './store.js';
import { queueArn } from './store.js';

/**
 * The messages a queue holds, as the admin API shows them (`?queue=<name>&region=<region>`),
 * read without receiving: no visibility, receive count or dead-letter move changes.
 * Undefined when no such queue exists.
 */
export function queueMessagesView(store: QueueStore, query: URLSearchParams, homeRegion: string): unknown {
  const queue = store.get(query.get('region') ?? homeRegion, query.get('queue') ?? '');
  if (!queue) return undefined;
  return {
    queue: queue.name,
    arn: queueArn(queue),
    messages: queue.messages.map((message) => ({
      messageId: message.id,
      body: message.body,
      sentAt: new Date(message.sentAt).toISOString(),
      visibleAt: new Date(message.visibleAt).toISOString(),
      receiveCount: message.receiveCount,
      ...(message.groupId !== undefined ? { groupId: message.groupId } : {}),
    })),
  };
}
