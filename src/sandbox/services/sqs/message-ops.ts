import { requireQueue, type SqsCall } from './call.js';
import { byHandle, enqueue, receive, remove, setVisibility, systemAttributes } from './queue-messages.js';
import { sqsErrors } from './sqs-errors.js';
import type { MessageAttribute, QueueRecord, SqsMessage } from './store.js';

/** Messages: send, receive (no long polling: a wait returns at once), delete, visibility, batches. */

type Entry = Record<string, unknown>;

export async function sendMessage(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const message = await sendOne(call, queue, call.input);
  return { MessageId: message.id, MD5OfMessageBody: message.md5 };
}

export async function sendMessageBatch(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  return batch(call, async (entry) => {
    const message = await sendOne(call, queue, entry);
    return { MessageId: message.id, MD5OfMessageBody: message.md5 };
  });
}

async function sendOne(call: SqsCall, queue: QueueRecord, input: Entry): Promise<SqsMessage> {
  const body = input.MessageBody;
  if (typeof body !== 'string' || body === '') throw sqsErrors.missingParameter('MessageBody');
  if (Buffer.byteLength(body) > Number(queue.attributes.MaximumMessageSize)) {
    throw sqsErrors.invalidParameterValue(
      `One or more parameters are invalid. Reason: Message must be shorter than ${queue.attributes.MaximumMessageSize} bytes.`,
    );
  }
  const fifo = queue.attributes.FifoQueue === 'true';
  const groupId = typeof input.MessageGroupId === 'string' ? input.MessageGroupId : undefined;
  if (fifo && groupId === undefined) throw sqsErrors.missingParameter('MessageGroupId');
  const delay = Number(input.DelaySeconds ?? queue.attributes.DelaySeconds ?? 0);
  const attributes = input.MessageAttributes as Record<string, MessageAttribute> | undefined;
  return enqueue(call.store, queue, { body, now: call.options.now(), delay, groupId, attributes });
}

export async function receiveMessage(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const max = Number(call.input.MaxNumberOfMessages ?? 1);
  if (!Number.isInteger(max) || max < 1 || max > 10) {
    throw sqsErrors.invalidParameterValue(
      'Value for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10.',
    );
  }
  const visibility = Number(call.input.VisibilityTimeout ?? queue.attributes.VisibilityTimeout);
  const received = await receive(call.store, queue, { max, visibility, now: call.options.now() });
  const wanted = (call.input.MessageAttributeNames as string[] | undefined) ?? [];
  return received.length === 0
    ? {}
    : {
        Messages: received.map((message) => ({
          MessageId: message.id,
          ReceiptHandle: message.receiptHandle,
          MD5OfBody: message.md5,
          Body: message.body,
          Attributes: systemAttributes(message),
          ...selectedAttributes(message, wanted),
        })),
      };
}

/** `All`, `.*`, a name, or a prefix ending `.*` selects message attributes. */
function selectedAttributes(message: SqsMessage, wanted: string[]): Record<string, unknown> {
  const selected = Object.entries(message.messageAttributes ?? {}).filter(([name]) =>
    wanted.some(
      (pattern) =>
        pattern === 'All' ||
        pattern === '.*' ||
        pattern === name ||
        (pattern.endsWith('.*') && name.startsWith(pattern.slice(0, -1))),
    ),
  );
  return selected.length > 0 ? { MessageAttributes: Object.fromEntries(selected) } : {};
}

export async function deleteMessage(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  await remove(call.store, queue, [checkedHandle(call.input)]);
  return {};
}

export async function deleteMessageBatch(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  return batch(call, async (entry) => {
    await remove(call.store, queue, [checkedHandle(entry)]);
    return {};
  });
}

export async function changeMessageVisibility(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  await changeVisibility(call, queue, call.input);
  return {};
}

export async function changeMessageVisibilityBatch(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  return batch(call, async (entry) => {
    await changeVisibility(call, queue, entry);
    return {};
  });
}

async function changeVisibility(call: SqsCall, queue: QueueRecord, input: Entry): Promise<void> {
  const handle = checkedHandle(input);
  const seconds = Number(input.VisibilityTimeout);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 43200) {
    throw sqsErrors.invalidParameterValue(
      'Value for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and 43200.',
    );
  }
  const message = byHandle(queue, handle);
  if (!message || message.visibleAt <= call.options.now()) {
    throw sqsErrors.messageNotInflight();
  }
  await setVisibility(call.store, queue, handle, seconds, call.options.now());
}

/** A handle of a message already deleted is accepted, as SQS does; a malformed one is not. */
function checkedHandle(input: Entry): string {
  const handle = input.ReceiptHandle;
  if (typeof handle !== 'string' || handle === '') throw sqsErrors.missingParameter('ReceiptHandle');
  const decoded = Buffer.from(handle, 'base64').toString('utf8');
  if (!/^[0-9a-f-]{36}:[0-9a-f-]{36}$/.test(decoded)) throw sqsErrors.receiptHandleIsInvalid(handle);
  return handle;
}

/** A batch: up to 10 entries with distinct Ids, each succeeding or failing on its own. */
async function batch(
  call: SqsCall,
  each: (entry: Entry) => Promise<Record<string, unknown>>,
): Promise<unknown> {
  const entries = (call.input.Entries as Entry[] | undefined) ?? [];
  if (entries.length === 0) throw sqsErrors.emptyBatch();
  if (entries.length > 10) throw sqsErrors.tooManyEntries(entries.length);
  const ids = entries.map((entry) => String(entry.Id ?? ''));
  if (new Set(ids).size !== ids.length) throw sqsErrors.batchEntryIdsNotDistinct();
  const Successful: unknown[] = [];
  const Failed: unknown[] = [];
  for (const entry of entries) {
    try {
      Successful.push({ Id: entry.Id, ...(await each(entry)) });
    } catch (error) {
      const failure = error as { code?: string; message?: string };
      Failed.push({
        Id: entry.Id,
        SenderFault: true,
        Code: failure.code ?? 'InternalError',
        Message: failure.message,
      });
    }
  }
  return { Successful, Failed };
}

export async function purgeQueue(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  queue.messages = [];
  await call.store.save(queue);
  return {};
}
