import { createHash, randomUUID } from 'node:crypto';
import { requireQueue, type SqsCall } from './call.js';
import { sqsErrors } from './sqs-errors.js';
import type { QueueRecord, QueueStore, SqsMessage } from './store.js';

/** Message basics: send, receive (no long polling: a wait returns at once), delete. */

export async function sendMessage(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const body = call.input.MessageBody;
  if (typeof body !== 'string' || body === '') throw sqsErrors.missingParameter('MessageBody');
  if (Buffer.byteLength(body) > Number(queue.attributes.MaximumMessageSize)) {
    throw sqsErrors.invalidParameterValue(
      `One or more parameters are invalid. Reason: Message must be shorter than ${queue.attributes.MaximumMessageSize} bytes.`,
    );
  }
  const fifo = queue.attributes.FifoQueue === 'true';
  const groupId = typeof call.input.MessageGroupId === 'string' ? call.input.MessageGroupId : undefined;
  if (fifo && groupId === undefined) throw sqsErrors.missingParameter('MessageGroupId');
  const delay = Number(call.input.DelaySeconds ?? queue.attributes.DelaySeconds ?? 0);
  const message = await enqueue(call.store, queue, { body, now: call.options.now(), delay, groupId });
  return { MessageId: message.id, MD5OfMessageBody: message.md5 };
}

/** Adds a message to the queue and stores it: SendMessage's, or a delivery from another module. */
export async function enqueue(
  store: QueueStore,
  queue: QueueRecord,
  sent: { body: string; now: number; delay: number; groupId?: string | undefined },
): Promise<SqsMessage> {
  const message: SqsMessage = {
    id: randomUUID(),
    body: sent.body,
    md5: createHash('md5').update(sent.body).digest('hex'),
    sentAt: sent.now,
    visibleAt: sent.now + sent.delay * 1000,
    receiveCount: 0,
    ...(sent.groupId !== undefined ? { groupId: sent.groupId } : {}),
  };
  queue.messages.push(message);
  await store.save(queue);
  return message;
}

export async function receiveMessage(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const max = Number(call.input.MaxNumberOfMessages ?? 1);
  if (!Number.isInteger(max) || max < 1 || max > 10) {
    throw sqsErrors.invalidParameterValue(
      'Value for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10.',
    );
  }
  const now = call.options.now();
  const visibility = Number(call.input.VisibilityTimeout ?? queue.attributes.VisibilityTimeout);
  const received = queue.messages.filter((message) => message.visibleAt <= now).slice(0, max);
  for (const message of received) {
    message.receiveCount += 1;
    message.visibleAt = now + visibility * 1000;
    message.receiptHandle = Buffer.from(`${message.id}:${randomUUID()}`).toString('base64');
  }
  if (received.length > 0) await call.store.save(queue);
  return received.length === 0
    ? {}
    : {
        Messages: received.map((message) => ({
          MessageId: message.id,
          ReceiptHandle: message.receiptHandle,
          MD5OfBody: message.md5,
          Body: message.body,
          Attributes: systemAttributes(message),
        })),
      };
}

function systemAttributes(message: SqsMessage): Record<string, string> {
  return {
    SentTimestamp: String(message.sentAt),
    ApproximateReceiveCount: String(message.receiveCount),
    ...(message.groupId !== undefined ? { MessageGroupId: message.groupId } : {}),
  };
}

export async function deleteMessage(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const handle = call.input.ReceiptHandle;
  if (typeof handle !== 'string' || handle === '') throw sqsErrors.missingParameter('ReceiptHandle');
  const index = findByHandle(queue, handle);
  if (index >= 0) {
    queue.messages.splice(index, 1);
    await call.store.save(queue);
  }
  return {};
}

/** A handle of a message already deleted is accepted, as SQS does; a malformed one is not. */
function findByHandle(queue: QueueRecord, handle: string): number {
  const decoded = Buffer.from(handle, 'base64').toString('utf8');
  if (!/^[0-9a-f-]{36}:[0-9a-f-]{36}$/.test(decoded)) throw sqsErrors.receiptHandleIsInvalid(handle);
  return queue.messages.findIndex((message) => message.receiptHandle === handle);
}

export async function purgeQueue(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  queue.messages = [];
  await call.store.save(queue);
  return {};
}
