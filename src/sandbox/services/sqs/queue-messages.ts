import { createHash, randomUUID } from 'node:crypto';
import type { MessageAttribute, QueueRecord, QueueStore, SqsMessage } from './store.js';
import { queueArn } from './store.js';

/** What happens to a queue's messages, shared by the API handlers and the ports other modules use. */

export interface Sent {
  body: string;
  now: number;
  /** Seconds. */
  delay: number;
  groupId?: string | undefined;
  attributes?: Record<string, MessageAttribute> | undefined;
}

/** Adds a message to the queue and stores it: SendMessage's, or a delivery from another module. */
export async function enqueue(store: QueueStore, queue: QueueRecord, sent: Sent): Promise<SqsMessage> {
  const message: SqsMessage = {
    id: randomUUID(),
    body: sent.body,
    md5: createHash('md5').update(sent.body).digest('hex'),
    sentAt: sent.now,
    visibleAt: sent.now + sent.delay * 1000,
    receiveCount: 0,
    ...(sent.groupId !== undefined ? { groupId: sent.groupId } : {}),
    ...(sent.attributes && Object.keys(sent.attributes).length > 0
      ? { messageAttributes: sent.attributes }
      : {}),
  };
  queue.messages.push(message);
  await store.save(queue);
  return message;
}

/**
 * Receives up to `max` visible messages, hiding each for `visibility` seconds. A message
 * received as often as the redrive policy's maxReceiveCount moves to the dead-letter queue
 * instead, as SQS moves it; a FIFO queue hands out no message of a group that has one in flight.
 */
export async function receive(
  store: QueueStore,
  queue: QueueRecord,
  options: { max: number; visibility: number; now: number },
): Promise<SqsMessage[]> {
  const { now } = options;
  await redrive(store, queue, now);
  const fifo = queue.attributes.FifoQueue === 'true';
  const busyGroups = new Set(
    fifo ? queue.messages.filter((m) => m.visibleAt > now && m.receiveCount > 0).map((m) => m.groupId) : [],
  );
  const received: SqsMessage[] = [];
  for (const message of queue.messages) {
    if (received.length >= options.max) break;
    if (message.visibleAt > now || (fifo && busyGroups.has(message.groupId))) continue;
    message.receiveCount += 1;
    message.firstReceivedAt ??= now;
    message.visibleAt = now + options.visibility * 1000;
    message.receiptHandle = Buffer.from(`${message.id}:${randomUUID()}`).toString('base64');
    received.push(message);
  }
  if (received.length > 0) await store.save(queue);
  return received;
}

async function redrive(store: QueueStore, queue: QueueRecord, now: number): Promise<void> {
  const policy = redrivePolicy(queue);
  if (!policy) return;
  const dlq = store.byArn(policy.deadLetterTargetArn);
  if (!dlq) return;
  const exhausted = queue.messages.filter(
    (message) => message.visibleAt <= now && message.receiveCount >= policy.maxReceiveCount,
  );
  if (exhausted.length === 0) return;
  queue.messages = queue.messages.filter((message) => !exhausted.includes(message));
  for (const message of exhausted) {
    const moved: SqsMessage = {
      ...message,
      visibleAt: now,
      receiveCount: 0,
      deadLetterSourceArn: queueArn(queue),
    };
    delete moved.receiptHandle;
    dlq.messages.push(moved);
  }
  await store.save(dlq);
  await store.save(queue);
}

function redrivePolicy(
  queue: QueueRecord,
): { deadLetterTargetArn: string; maxReceiveCount: number } | undefined {
  if (!queue.attributes.RedrivePolicy) return undefined;
  try {
    const parsed = JSON.parse(queue.attributes.RedrivePolicy) as {
      deadLetterTargetArn?: unknown;
      maxReceiveCount?: unknown;
    };
    const max = Number(parsed.maxReceiveCount);
    if (typeof parsed.deadLetterTargetArn !== 'string' || !Number.isFinite(max)) return undefined;
    return { deadLetterTargetArn: parsed.deadLetterTargetArn, maxReceiveCount: max };
  } catch {
    return undefined;
  }
}

/** The message a receipt handle names (its latest receive), if it is still in the queue. */
export function byHandle(queue: QueueRecord, handle: string): SqsMessage | undefined {
  return queue.messages.find((message) => message.receiptHandle === handle);
}

export async function remove(
  store: QueueStore,
  queue: QueueRecord,
  handles: readonly string[],
): Promise<void> {
  const gone = new Set(handles);
  const before = queue.messages.length;
  queue.messages = queue.messages.filter((message) => !gone.has(message.receiptHandle ?? ''));
  if (queue.messages.length !== before) await store.save(queue);
}

/** Sets when a received message shows again (ChangeMessageVisibility; 0 makes it visible now). */
export async function setVisibility(
  store: QueueStore,
  queue: QueueRecord,
  handle: string,
  seconds: number,
  now: number,
): Promise<boolean> {
  const message = byHandle(queue, handle);
  if (!message) return false;
  message.visibleAt = now + seconds * 1000;
  await store.save(queue);
  return true;
}

/** The system attributes ReceiveMessage returns. */
export function systemAttributes(message: SqsMessage): Record<string, string> {
  return {
    SentTimestamp: String(message.sentAt),
    ApproximateReceiveCount: String(message.receiveCount),
    ...(message.firstReceivedAt !== undefined
      ? { ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt) }
      : {}),
    ...(message.groupId !== undefined ? { MessageGroupId: message.groupId } : {}),
    ...(message.deadLetterSourceArn !== undefined
      ? { DeadLetterQueueSourceArn: message.deadLetterSourceArn }
      : {}),
    SenderId: 'AIDASANDBOX',
  };
}
