import {
  COMPUTED_ATTRIBUTES,
  defaultAttributes,
  isAttributeName,
  mergeAttributes,
  sameAttributes,
  validateAttributes,
} from './attributes.js';
import { queueUrl, requireQueue, stringMap, type SqsCall } from './call.js';
import { sqsErrors } from './sqs-errors.js';
import { queueArn, type QueueRecord } from './store.js';

const NAME = /^[A-Za-z0-9_-]{1,80}$/;
const MAX_TAGS = 50;

/** Creates a queue, or returns the one holding the name when the attributes agree. */
export async function createQueue(call: SqsCall): Promise<unknown> {
  const { store, request, input, options } = call;
  const name = typeof input.QueueName === 'string' ? input.QueueName : '';
  const attributes = stringMap(input.Attributes);
  const fifo = attributes.FifoQueue === 'true';
  validateName(name, fifo);
  validateAttributes(attributes, { creating: true, fifo });
  const existing = store.get(request.region, name);
  if (existing) {
    if (!sameAttributes(existing.attributes, attributes)) throw sqsErrors.queueNameExists(name);
    return { QueueUrl: queueUrl(call, existing) };
  }
  const now = options.now();
  if (store.recentlyDeleted(request.region, name, now, options.deleteCooldownMs)) {
    throw sqsErrors.queueDeletedRecently();
  }
  const tags = stringMap(input.tags);
  if (Object.keys(tags).length > MAX_TAGS) throw sqsErrors.tooManyTags();
  const queue: QueueRecord = {
    name,
    region: request.region,
    accountId: call.accountId,
    attributes: mergeAttributes(defaultAttributes(fifo), attributes),
    tags,
    createdAt: now,
    lastModifiedAt: now,
    messages: [],
  };
  await store.save(queue);
  return { QueueUrl: queueUrl(call, queue) };
}

function validateName(name: string, fifo: boolean): void {
  const problem = queueNameProblem(name, fifo);
  if (problem) throw sqsErrors.invalidParameterValue(problem);
}

/** SQS's message for a queue name it refuses (shared with Cloud Control), or undefined. */
export function queueNameProblem(name: string, fifo: boolean): string | undefined {
  const generic = 'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length';
  const base = name.endsWith('.fifo') ? name.slice(0, -'.fifo'.length) : name;
  if (!NAME.test(base) || name.length > 80) return generic;
  if (fifo === name.endsWith('.fifo')) return undefined;
  return fifo
    ? 'The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.'
    : generic;
}

export async function getQueueUrl(call: SqsCall): Promise<unknown> {
  const name = typeof call.input.QueueName === 'string' ? call.input.QueueName : '';
  if (name === '') throw sqsErrors.missingParameter('QueueName');
  const queue = call.store.get(call.request.region, name);
  if (!queue) throw sqsErrors.nonExistentQueue();
  return { QueueUrl: queueUrl(call, queue) };
}

export async function getQueueAttributes(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const names = Array.isArray(call.input.AttributeNames) ? (call.input.AttributeNames as string[]) : [];
  const all = allAttributes(queue, call.options.now());
  const wanted = names.includes('All') ? Object.keys(all) : names;
  const attributes: Record<string, string> = {};
  for (const name of wanted) {
    if (!isAttributeName(name)) throw sqsErrors.invalidAttributeName(name);
    if (all[name] !== undefined) attributes[name] = all[name];
  }
  return Object.keys(attributes).length > 0 ? { Attributes: attributes } : {};
}

/** Stored attributes plus the ones SQS computes. */
export function allAttributes(queue: QueueRecord, now: number): Record<string, string> {
  const count = (test: (message: QueueRecord['messages'][number]) => boolean): string =>
    String(queue.messages.filter(test).length);
  const computed: Record<(typeof COMPUTED_ATTRIBUTES)[number], string> = {
    QueueArn: queueArn(queue),
    ApproximateNumberOfMessages: count((m) => m.visibleAt <= now),
    ApproximateNumberOfMessagesNotVisible: count((m) => m.visibleAt > now && m.receiveCount > 0),
    ApproximateNumberOfMessagesDelayed: count((m) => m.visibleAt > now && m.receiveCount === 0),
    CreatedTimestamp: String(Math.floor(queue.createdAt / 1000)),
    LastModifiedTimestamp: String(Math.floor(queue.lastModifiedAt / 1000)),
  };
  return { ...queue.attributes, ...computed };
}

export async function setQueueAttributes(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const changes = stringMap(call.input.Attributes);
  validateAttributes(changes, { creating: false, fifo: queue.attributes.FifoQueue === 'true' });
  queue.attributes = mergeAttributes(queue.attributes, changes);
  queue.lastModifiedAt = call.options.now();
  await call.store.save(queue);
  return {};
}

export async function deleteQueue(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  await call.store.delete(queue, call.options.now());
  return {};
}

export async function listQueues(call: SqsCall): Promise<unknown> {
  const prefix = typeof call.input.QueueNamePrefix === 'string' ? call.input.QueueNamePrefix : '';
  const matching = call.store.list(call.request.region).filter((queue) => queue.name.startsWith(prefix));
  const size = typeof call.input.MaxResults === 'number' ? call.input.MaxResults : 1000;
  const start =
    typeof call.input.NextToken === 'string'
      ? Number(Buffer.from(call.input.NextToken, 'base64url').toString())
      : 0;
  const page = matching.slice(start, start + size);
  const end = start + page.length;
  return {
    ...(page.length > 0 ? { QueueUrls: page.map((queue) => queueUrl(call, queue)) } : {}),
    ...(end < matching.length && call.input.MaxResults !== undefined
      ? { NextToken: Buffer.from(String(end)).toString('base64url') }
      : {}),
  };
}

export async function tagQueue(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const tags = { ...queue.tags, ...stringMap(call.input.Tags) };
  if (Object.keys(tags).length > MAX_TAGS) throw sqsErrors.tooManyTags();
  queue.tags = tags;
  await call.store.save(queue);
  return {};
}

export async function untagQueue(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  const keys = Array.isArray(call.input.TagKeys) ? (call.input.TagKeys as string[]) : [];
  for (const tagKey of keys) delete queue.tags[tagKey];
  await call.store.save(queue);
  return {};
}

export async function listQueueTags(call: SqsCall): Promise<unknown> {
  const queue = requireQueue(call);
  return Object.keys(queue.tags).length > 0 ? { Tags: queue.tags } : {};
}
