import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import {
  alreadyExists,
  asHandler,
  checkCreate,
  checkUpdate,
  jsonText,
  jsonValue,
  mustExist,
} from '../resource-model.js';
import type { SnsStore, SubscriptionRecord } from './store.js';
import { checkSubscription, newSubscription } from './subscription-ops.js';

export const SUBSCRIPTION = 'AWS::SNS::Subscription';

const STRINGS = ['FilterPolicyScope', 'SubscriptionRoleArn'];
const JSONS = ['FilterPolicy', 'RedrivePolicy', 'DeliveryPolicy', 'ReplayPolicy'];

/** The template's properties as subscription attributes. */
function attributesOf(desired: ResourceModel): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (desired.RawMessageDelivery !== undefined)
    attributes.RawMessageDelivery = String(desired.RawMessageDelivery);
  for (const name of STRINGS) if (desired[name] !== undefined) attributes[name] = String(desired[name]);
  for (const name of JSONS) if (desired[name] !== undefined) attributes[name] = jsonText(desired[name]);
  return attributes;
}

function model(subscription: SubscriptionRecord): ResourceModel {
  const { attributes } = subscription;
  const properties: ResourceModel = {};
  for (const name of STRINGS) if (attributes[name] !== undefined) properties[name] = attributes[name];
  for (const name of JSONS)
    if (attributes[name] !== undefined) properties[name] = jsonValue(attributes[name]);
  return {
    ...properties,
    Arn: subscription.arn,
    TopicArn: subscription.topicArn,
    Protocol: subscription.protocol,
    Endpoint: subscription.endpoint,
    Region: subscription.region,
    RawMessageDelivery: attributes.RawMessageDelivery === 'true',
  };
}

const accountOf = (arn: string): string => arn.split(':')[4] ?? '';
const ownerOf = (subscription: SubscriptionRecord): string =>
  subscription.owner ?? accountOf(subscription.arn);

/**
 * AWS::SNS::Subscription for Cloud Control on the SNS module's store, identified by the
 * subscription ARN; its attributes update in place (one left out is removed, RawMessageDelivery
 * returns to false). As SNS's Subscribe, the topic may be another account's, and in the region
 * the `Region` property names (the stack's when absent); the ARN is then in the topic's account
 * and region, and both the subscriber and the topic's owner reach it by it.
 */
export function subscriptionResourceHandler(store: SnsStore): ResourceHandler {
  const find = (arn: string, accountId: string): SubscriptionRecord | undefined => {
    const subscription = store.subscriptions.get(arn);
    return subscription && (ownerOf(subscription) === accountId || accountOf(subscription.arn) === accountId)
      ? subscription
      : undefined;
  };
  const found = (arn: string, accountId: string): SubscriptionRecord =>
    mustExist(SUBSCRIPTION, arn, find(arn, accountId));
  return {
    async create(desired, region, accountId) {
      checkCreate(SUBSCRIPTION, desired);
      const topicArn = String(desired.TopicArn);
      const topic = store.topics.get(topicArn);
      const topicRegion = typeof desired.Region === 'string' ? desired.Region : region;
      if (!topic || topic.region !== topicRegion) {
        throw new HandlerError('NotFound', `Topic ${topicArn} does not exist.`);
      }
      const protocol = String(desired.Protocol);
      const endpoint = desired.Endpoint === undefined ? '' : String(desired.Endpoint);
      const attributes = attributesOf(desired);
      await asHandler(() => checkSubscription(protocol, endpoint, attributes));
      const existing = store
        .subscriptionsOf(topicArn)
        .find((subscription) => subscription.protocol === protocol && subscription.endpoint === endpoint);
      if (existing) throw alreadyExists(SUBSCRIPTION, existing.arn);
      const subscription = newSubscription(topic, protocol, endpoint, attributes, accountId);
      await store.saveSubscription(subscription);
      return { identifier: subscription.arn, model: model(subscription) };
    },
    read(identifier, _region, accountId) {
      const subscription = find(identifier, accountId);
      return subscription && model(subscription);
    },
    async update(identifier, desired, _region, accountId) {
      const subscription = found(identifier, accountId);
      checkUpdate(SUBSCRIPTION, model(subscription), desired);
      const given = attributesOf(desired);
      await asHandler(() => checkSubscription(subscription.protocol, subscription.endpoint, given));
      for (const name of [...STRINGS, ...JSONS]) delete subscription.attributes[name];
      Object.assign(subscription.attributes, { RawMessageDelivery: 'false' }, given);
      await store.saveSubscription(subscription);
      return model(subscription);
    },
    async delete(identifier, _region, accountId) {
      await store.deleteSubscription(found(identifier, accountId));
    },
    list(region, accountId) {
      return [...store.subscriptions.values()]
        .filter((subscription) => subscription.region === region && ownerOf(subscription) === accountId)
        .map((subscription) => ({ identifier: subscription.arn, model: model(subscription) }));
    },
  };
}
