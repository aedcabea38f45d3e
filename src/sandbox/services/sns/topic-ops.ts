import { el } from '../../xml.js';
import { entries, isJson, requireTopic, type SnsHandler } from './call.js';
import { entryMap, members, required, tagMembers } from './params.js';
import { snsErrors } from './sns-errors.js';
import type { TopicRecord } from './store.js';

const NAME = /^[A-Za-z0-9_-]{1,256}$/;
const MAX_TAGS = 50;

/** Attributes CreateTopic and SetTopicAttributes accept. */
const SETTABLE = new Set([
  'DisplayName',
  'Policy',
  'DeliveryPolicy',
  'KmsMasterKeyId',
  'SignatureVersion',
  'TracingConfig',
  'ContentBasedDeduplication',
  'ArchivePolicy',
  'FifoThroughputScope',
  'DataProtectionPolicy',
]);
const JSON_ATTRIBUTES = new Set(['Policy', 'DeliveryPolicy', 'ArchivePolicy', 'DataProtectionPolicy']);

/** Checks topic attributes as SNS does; `creating` allows FifoTopic. */
export function validateTopicAttributes(
  attributes: Record<string, string>,
  creating: boolean,
  fifo: boolean,
): void {
  for (const [name, value] of Object.entries(attributes)) {
    const allowed = SETTABLE.has(name) || (creating && name === 'FifoTopic');
    if (!allowed) throw snsErrors.invalidParameter(`AttributeName`);
    if (JSON_ATTRIBUTES.has(name) && value !== '' && !isJson(value)) {
      throw snsErrors.invalidParameter(`${name}: failed to parse JSON`);
    }
    if ((name === 'ContentBasedDeduplication' || name === 'FifoThroughputScope') && !fifo) {
      throw snsErrors.invalidParameter(`Attributes Reason: ${name} is only valid for FIFO topics`);
    }
  }
}

/** The access policy SNS gives a new topic: the owner may do everything. */
export function defaultPolicy(arn: string, accountId: string): string {
  return JSON.stringify({
    Version: '2008-10-17',
    Id: '__default_policy_ID',
    Statement: [
      {
        Sid: '__default_statement_ID',
        Effect: 'Allow',
        Principal: { AWS: '*' },
        Action: [
          'SNS:GetTopicAttributes',
          'SNS:SetTopicAttributes',
          'SNS:AddPermission',
          'SNS:RemovePermission',
          'SNS:DeleteTopic',
          'SNS:Subscribe',
          'SNS:ListSubscriptionsByTopic',
          'SNS:Publish',
        ],
        Resource: arn,
        Condition: { StringEquals: { 'AWS:SourceOwner': accountId } },
      },
    ],
  });
}

/** Creates a topic; the same name with the same attributes and tags returns it again. */
export const createTopic: SnsHandler = async (call) => {
  const { params, store, request, accountId } = call;
  const name = params.get('Name') ?? '';
  const attributes = entryMap(params, 'Attributes');
  const fifo = attributes.FifoTopic === 'true';
  const problem = topicNameProblem(name, fifo);
  if (problem) throw snsErrors.invalidParameter(problem);
  validateTopicAttributes(attributes, true, fifo);
  const tags = tagMembers(params);
  if (Object.keys(tags).length > MAX_TAGS) throw snsErrors.tagLimit();
  const arn = topicArn(request.region, accountId, name);
  const existing = store.topics.get(arn);
  if (existing) {
    if (Object.entries(attributes).some(([key, value]) => (existing.attributes[key] ?? '') !== value)) {
      throw snsErrors.invalidParameter('Attributes Reason: Topic already exists with different attributes');
    }
    if (Object.entries(tags).some(([key, value]) => existing.tags[key] !== value)) {
      throw snsErrors.invalidParameter('Tags Reason: Topic already exists with different tags');
    }
    return [el('TopicArn', arn)];
  }
  await store.saveTopic(
    newTopic({ name, region: request.region, accountId, attributes, tags }, call.context.clock.now()),
  );
  return [el('TopicArn', arn)];
};

/** A new topic as SNS makes it: the default access policy, FIFO settings, then the caller's attributes. */
export function newTopic(
  given: Pick<TopicRecord, 'name' | 'region' | 'accountId' | 'attributes' | 'tags'>,
  now: number,
): TopicRecord {
  const arn = topicArn(given.region, given.accountId, given.name);
  const fifo = given.attributes.FifoTopic === 'true';
  return {
    ...given,
    arn,
    attributes: {
      Policy: defaultPolicy(arn, given.accountId),
      ...(fifo ? { FifoTopic: 'true', ContentBasedDeduplication: 'false' } : {}),
      ...given.attributes,
    },
    createdAt: now,
  };
}

export const topicArn = (region: string, accountId: string, name: string): string =>
  `arn:aws:sns:${region}:${accountId}:${name}`;

export const getTopicAttributes: SnsHandler = async (call) => {
  const topic = requireTopic(call, call.params.get('TopicArn'));
  const subscriptions = call.store.subscriptionsOf(topic.arn);
  const pending = subscriptions.filter((s) => s.attributes.PendingConfirmation === 'true').length;
  return [
    entries('Attributes', {
      ...topic.attributes,
      TopicArn: topic.arn,
      Owner: topic.accountId,
      SubscriptionsConfirmed: String(subscriptions.length - pending),
      SubscriptionsPending: String(pending),
      SubscriptionsDeleted: '0',
    }),
  ];
};

export const setTopicAttributes: SnsHandler = async (call) => {
  const topic = requireTopic(call, call.params.get('TopicArn'));
  const name = required(call.params, 'AttributeName');
  const value = call.params.get('AttributeValue') ?? '';
  validateTopicAttributes({ [name]: value }, false, topic.attributes.FifoTopic === 'true');
  if (value === '' && name !== 'DisplayName') delete topic.attributes[name];
  else topic.attributes[name] = value;
  await call.store.saveTopic(topic);
  return [];
};

/** Deleting a topic that does not exist succeeds, as on SNS. */
export const deleteTopic: SnsHandler = async (call) => {
  const topic = call.store.topics.get(required(call.params, 'TopicArn'));
  if (topic) await call.store.deleteTopic(topic);
  return [];
};

export const listTopics: SnsHandler = async (call) => {
  const topics = [...call.store.topics.values()].filter((t) => t.region === call.request.region);
  return [
    el(
      'Topics',
      topics.map((topic) => el('member', [el('TopicArn', topic.arn)])),
    ),
  ];
};

/** Tags on a topic (the only taggable SNS resource the sandbox holds). */
export const tagResource: SnsHandler = async (call) => {
  const topic = taggable(call.params.get('ResourceArn'), call);
  const tags = { ...topic.tags, ...tagMembers(call.params) };
  if (Object.keys(tags).length > MAX_TAGS) throw snsErrors.tagLimit();
  topic.tags = tags;
  await call.store.saveTopic(topic);
  return [];
};

export const untagResource: SnsHandler = async (call) => {
  const topic = taggable(call.params.get('ResourceArn'), call);
  for (const key of members(call.params, 'TagKeys')) delete topic.tags[key];
  await call.store.saveTopic(topic);
  return [];
};

export const listTagsForResource: SnsHandler = async (call) => {
  const topic = taggable(call.params.get('ResourceArn'), call);
  return [
    el(
      'Tags',
      Object.entries(topic.tags).map(([Key, Value]) => el('member', [el('Key', Key), el('Value', Value)])),
    ),
  ];
};

function taggable(arn: string | null, call: Parameters<SnsHandler>[0]): TopicRecord {
  const topic = arn ? call.store.topics.get(arn) : undefined;
  if (!topic) throw snsErrors.resourceNotFound();
  return topic;
}

/** What SNS names after "Invalid parameter: " for a topic name it refuses (shared with Cloud Control). */
export function topicNameProblem(name: string, fifo: boolean): string | undefined {
  const base = name.endsWith('.fifo') ? name.slice(0, -'.fifo'.length) : name;
  if (NAME.test(base) && fifo === name.endsWith('.fifo')) return undefined;
  return fifo
    ? 'Fifo Topic names must end with .fifo and must be made up of only uppercase and lowercase ASCII letters, numbers, underscores, and hyphens, and must be between 1 and 256 characters long.'
    : 'Topic Name';
}
