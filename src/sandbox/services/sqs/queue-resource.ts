import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import {
  alreadyExists,
  asHandler,
  checkCreate,
  checkUpdate,
  isTrue,
  jsonText,
  jsonValue,
  mustExist,
  nameOf,
  tagList,
  tagMap,
} from '../resource-model.js';
import { defaultAttributes, mergeAttributes, validateAttributes } from './attributes.js';
import type { SqsOptions } from './call.js';
import { queueNameProblem } from './queue-ops.js';
import { sqsErrors } from './sqs-errors.js';
import { queueArn, type QueueRecord, type QueueStore } from './store.js';

export const QUEUE = 'AWS::SQS::Queue';

const NUMBERS = [
  'DelaySeconds',
  'MaximumMessageSize',
  'MessageRetentionPeriod',
  'ReceiveMessageWaitTimeSeconds',
  'VisibilityTimeout',
  'KmsDataKeyReusePeriodSeconds',
];
const BOOLEANS = ['FifoQueue', 'ContentBasedDeduplication', 'SqsManagedSseEnabled'];
const STRINGS = ['KmsMasterKeyId', 'DeduplicationScope', 'FifoThroughputLimit'];
const JSONS = ['RedrivePolicy', 'RedriveAllowPolicy'];
/** What an update resets an attribute the desired state leaves out to ('' clears it). */
const RESET: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(defaultAttributes(false)).filter(([name]) => name !== 'SqsManagedSseEnabled'),
  ),
  RedrivePolicy: '',
  RedriveAllowPolicy: '',
  KmsMasterKeyId: '',
};
const FIFO_RESET: Record<string, string> = {
  ContentBasedDeduplication: 'false',
  DeduplicationScope: 'queue',
  FifoThroughputLimit: 'perQueue',
};

/** The template's properties as SQS attributes (FifoQueue only when true, as CreateQueue keeps it). */
function attributesOf(desired: ResourceModel): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const name of [...NUMBERS, ...BOOLEANS, ...STRINGS]) {
    if (desired[name] !== undefined) attributes[name] = String(desired[name]);
  }
  for (const name of JSONS) if (desired[name] !== undefined) attributes[name] = jsonText(desired[name]);
  if (!isTrue(desired.FifoQueue)) delete attributes.FifoQueue;
  return attributes;
}

/** An update's full desired state as changes: what it leaves out returns to SQS's default. */
function changesOf(desired: ResourceModel, fifo: boolean): Record<string, string> {
  const given = attributesOf(desired);
  delete given.FifoQueue;
  const changes = { ...RESET, ...(fifo ? FIFO_RESET : {}), ...given };
  if (given.KmsMasterKeyId === undefined && given.SqsManagedSseEnabled === undefined) {
    changes.SqsManagedSseEnabled = 'true';
  }
  if (given.KmsMasterKeyId !== undefined) changes.KmsDataKeyReusePeriodSeconds ??= '300';
  return changes;
}

function model(queue: QueueRecord, url: string): ResourceModel {
  const { attributes } = queue;
  const properties: ResourceModel = {};
  for (const name of NUMBERS) if (attributes[name] !== undefined) properties[name] = Number(attributes[name]);
  for (const name of BOOLEANS)
    if (attributes[name] !== undefined) properties[name] = isTrue(attributes[name]);
  for (const name of STRINGS) if (attributes[name] !== undefined) properties[name] = attributes[name];
  for (const name of JSONS)
    if (attributes[name] !== undefined) properties[name] = jsonValue(attributes[name]);
  return {
    ...properties,
    QueueName: queue.name,
    QueueUrl: url,
    Arn: queueArn(queue),
    ...tagList(queue.tags),
  };
}

/** The queue a URL ending in `/{account}/{name}` names, whatever its host, in the caller's account. */
export function queueAtUrl(
  store: QueueStore,
  url: string,
  region: string,
  accountId: string,
): QueueRecord | undefined {
  const match = /^https?:\/\/[^/]+\/(\d{12})\/([^/]+)\/?$/.exec(url);
  const queue = match?.[1] === accountId ? store.get(region, match[2]!) : undefined;
  return queue?.accountId === accountId ? queue : undefined;
}

/**
 * AWS::SQS::Queue for Cloud Control on the SQS module's store, identified by its QueueUrl on
 * the sandbox's own endpoint (`baseUrl`), which the SQS API answers for the same queue; any
 * URL ending in `/{account}/{name}` reads it. A name is generated CloudFormation-style when
 * absent (`.fifo` added for a FIFO queue). Attributes and tags update in place.
 */
export function queueResourceHandler(
  store: QueueStore,
  options: SqsOptions,
  baseUrl: (region: string) => string,
): ResourceHandler {
  const urlOf = (queue: QueueRecord): string => `${baseUrl(queue.region)}/${queue.accountId}/${queue.name}`;
  const find = (identifier: string, region: string, accountId: string): QueueRecord | undefined =>
    queueAtUrl(store, identifier, region, accountId);
  const found = (identifier: string, region: string, accountId: string): QueueRecord =>
    mustExist(QUEUE, identifier, find(identifier, region, accountId));
  return {
    async create(desired, region, accountId) {
      checkCreate(QUEUE, desired);
      const fifo = isTrue(desired.FifoQueue);
      const name = nameOf(QUEUE, desired.QueueName, fifo);
      const problem = queueNameProblem(name, fifo);
      if (problem) throw new HandlerError('InvalidRequest', problem);
      const existing = store.get(region, name);
      if (existing) {
        throw alreadyExists(QUEUE, urlOf(existing));
      }
      const now = options.now();
      const queue = await asHandler(() => {
        if (store.recentlyDeleted(region, name, now, options.deleteCooldownMs)) {
          throw sqsErrors.queueDeletedRecently();
        }
        const attributes = attributesOf(desired);
        validateAttributes(attributes, { creating: true, fifo });
        const record: QueueRecord = {
          name,
          region,
          accountId,
          attributes: mergeAttributes(defaultAttributes(fifo), attributes),
          tags: tagMap(desired),
          createdAt: now,
          lastModifiedAt: now,
          messages: [],
        };
        return record;
      });
      await store.save(queue);
      return { identifier: urlOf(queue), model: model(queue, urlOf(queue)) };
    },
    read(identifier, region, accountId) {
      const queue = find(identifier, region, accountId);
      return queue && model(queue, urlOf(queue));
    },
    async update(identifier, desired, region, accountId) {
      const queue = found(identifier, region, accountId);
      checkUpdate(QUEUE, model(queue, urlOf(queue)), desired);
      const fifo = queue.attributes.FifoQueue === 'true';
      // Everything is checked before the queue changes, so a refused update changes nothing.
      const changes = changesOf(desired, fifo);
      await asHandler(() => validateAttributes(changes, { creating: false, fifo }));
      queue.attributes = mergeAttributes(queue.attributes, changes);
      queue.tags = tagMap(desired);
      queue.lastModifiedAt = options.now();
      await store.save(queue);
      return model(queue, urlOf(queue));
    },
    async delete(identifier, region, accountId) {
      await store.delete(found(identifier, region, accountId), options.now());
    },
    list(region, accountId) {
      return store
        .list(region)
        .filter((queue) => queue.accountId === accountId)
        .map((queue) => ({ identifier: urlOf(queue), model: model(queue, urlOf(queue)) }));
    },
  };
}
