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
import type { SnsStore, SubscriptionRecord, TopicRecord } from './store.js';
import { checkSubscription, newSubscription } from './subscription-ops.js';
import { newTopic, topicArn, topicNameProblem, validateTopicAttributes } from './topic-ops.js';

export const TOPIC = 'AWS::SNS::Topic';

const STRINGS = ['DisplayName', 'KmsMasterKeyId', 'SignatureVersion', 'TracingConfig', 'FifoThroughputScope'];
const BOOLEANS = ['FifoTopic', 'ContentBasedDeduplication'];
const JSONS = ['ArchivePolicy', 'DataProtectionPolicy'];
/** Properties SNS keeps no attribute for: read back as set. */
const KEPT = ['DeliveryStatusLogging', 'MaximumMessageSize'];

interface Endpoint {
  Protocol: string;
  Endpoint: string;
}

/** The template's properties as SNS topic attributes (FifoTopic only when true). */
function attributesOf(desired: ResourceModel): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const name of [...STRINGS, ...BOOLEANS]) {
    if (desired[name] !== undefined) attributes[name] = String(desired[name]);
  }
  for (const name of JSONS) if (desired[name] !== undefined) attributes[name] = jsonText(desired[name]);
  if (!isTrue(desired.FifoTopic)) delete attributes.FifoTopic;
  return attributes;
}

function keptOf(desired: ResourceModel): Pick<TopicRecord, 'kept'> {
  const kept = Object.fromEntries(
    KEPT.filter((key) => desired[key] !== undefined).map((key) => [key, desired[key]]),
  );
  return Object.keys(kept).length > 0 ? { kept } : {};
}

function endpointsOf(desired: ResourceModel): Endpoint[] {
  const list = Array.isArray(desired.Subscription) ? (desired.Subscription as Array<Partial<Endpoint>>) : [];
  return list.map((entry) => ({
    Protocol: String(entry.Protocol ?? ''),
    Endpoint: String(entry.Endpoint ?? ''),
  }));
}

/**
 * AWS::SNS::Topic for Cloud Control on the SNS module's store, identified by TopicArn; a name
 * is generated CloudFormation-style when absent (`.fifo` added for a FIFO topic). The
 * `Subscription` list subscribes each endpoint; an update subscribes the new ones and
 * unsubscribes the ones it drops, leaving subscriptions made otherwise alone.
 */
export function topicResourceHandler(store: SnsStore, now: () => number): ResourceHandler {
  const find = (arn: string, region: string, accountId: string): TopicRecord | undefined => {
    const topic = store.topics.get(arn);
    return topic?.region === region && topic.accountId === accountId ? topic : undefined;
  };
  const found = (arn: string, region: string, accountId: string): TopicRecord =>
    mustExist(TOPIC, arn, find(arn, region, accountId));
  const owned = (topic: TopicRecord): SubscriptionRecord[] =>
    store.subscriptionsOf(topic.arn).filter((subscription) => subscription.viaTopic);
  const model = (topic: TopicRecord): ResourceModel => {
    const { attributes } = topic;
    const properties: ResourceModel = { ...topic.kept };
    for (const name of STRINGS) if (attributes[name] !== undefined) properties[name] = attributes[name];
    for (const name of BOOLEANS)
      if (attributes[name] !== undefined) properties[name] = isTrue(attributes[name]);
    for (const name of JSONS)
      if (attributes[name] !== undefined) properties[name] = jsonValue(attributes[name]);
    const subscriptions = owned(topic).map((s) => ({ Endpoint: s.endpoint, Protocol: s.protocol }));
    return {
      ...properties,
      TopicArn: topic.arn,
      TopicName: topic.name,
      ...(subscriptions.length > 0 ? { Subscription: subscriptions } : {}),
      ...tagList(topic.tags),
    };
  };
  /** Subscribes the endpoints the topic does not reach yet, and unsubscribes the ones it owns that are dropped. */
  const subscribe = async (topic: TopicRecord, endpoints: Endpoint[]) => {
    const same = (s: SubscriptionRecord, e: Endpoint) =>
      s.protocol === e.Protocol && s.endpoint === e.Endpoint;
    for (const subscription of owned(topic)) {
      if (!endpoints.some((endpoint) => same(subscription, endpoint)))
        await store.deleteSubscription(subscription);
    }
    for (const endpoint of endpoints) {
      if (store.subscriptionsOf(topic.arn).some((subscription) => same(subscription, endpoint))) continue;
      const subscription = newSubscription(topic, endpoint.Protocol, endpoint.Endpoint, {});
      await store.saveSubscription({ ...subscription, viaTopic: true });
    }
  };
  return {
    async create(desired, region, accountId) {
      checkCreate(TOPIC, desired);
      const fifo = isTrue(desired.FifoTopic);
      const name = nameOf(TOPIC, desired.TopicName, fifo);
      const problem = topicNameProblem(name, fifo);
      if (problem) throw new HandlerError('InvalidRequest', `Invalid parameter: ${problem}`);
      const arn = topicArn(region, accountId, name);
      if (store.topics.has(arn)) throw alreadyExists(TOPIC, arn);
      const attributes = attributesOf(desired);
      const endpoints = endpointsOf(desired);
      await asHandler(() => {
        validateTopicAttributes(attributes, true, fifo);
        for (const endpoint of endpoints) checkSubscription(endpoint.Protocol, endpoint.Endpoint, {});
      });
      const topic = {
        ...newTopic({ name, region, accountId, attributes, tags: tagMap(desired) }, now()),
        ...keptOf(desired),
      };
      await store.saveTopic(topic);
      await subscribe(topic, endpoints);
      return { identifier: arn, model: model(topic) };
    },
    read(identifier, region, accountId) {
      const topic = find(identifier, region, accountId);
      return topic && model(topic);
    },
    async update(identifier, desired, region, accountId) {
      const topic = found(identifier, region, accountId);
      checkUpdate(TOPIC, model(topic), desired);
      const given = attributesOf(desired);
      delete given.FifoTopic;
      const endpoints = endpointsOf(desired);
      // Everything is checked before the topic changes, so a refused update changes nothing.
      await asHandler(() => {
        validateTopicAttributes(given, false, topic.attributes.FifoTopic === 'true');
        for (const endpoint of endpoints) checkSubscription(endpoint.Protocol, endpoint.Endpoint, {});
      });
      for (const name of [...STRINGS, ...JSONS, 'ContentBasedDeduplication']) delete topic.attributes[name];
      if (topic.attributes.FifoTopic === 'true') topic.attributes.ContentBasedDeduplication = 'false';
      Object.assign(topic.attributes, given);
      topic.tags = tagMap(desired);
      delete topic.kept;
      Object.assign(topic, keptOf(desired));
      await store.saveTopic(topic);
      await subscribe(topic, endpoints);
      return model(topic);
    },
    async delete(identifier, region, accountId) {
      await store.deleteTopic(found(identifier, region, accountId));
    },
    list(region, accountId) {
      return [...store.topics.values()]
        .filter((topic) => topic.region === region && topic.accountId === accountId)
        .map((topic) => ({ identifier: topic.arn, model: model(topic) }));
    },
  };
}
