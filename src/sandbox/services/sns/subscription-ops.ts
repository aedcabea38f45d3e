import { randomUUID } from 'node:crypto';
import { el } from '../../xml.js';
import { entries, isJson, requireTopic, type SnsCall, type SnsHandler } from './call.js';
import { entryMap, required } from './params.js';
import { snsErrors } from './sns-errors.js';
import type { SubscriptionRecord, TopicRecord } from './store.js';

const PROTOCOLS = new Set([
  'http',
  'https',
  'email',
  'email-json',
  'sms',
  'sqs',
  'application',
  'lambda',
  'firehose',
]);
/** Protocols whose endpoint must confirm before the subscription is live. */
const CONFIRMED_BY_ENDPOINT = new Set(['http', 'https', 'email', 'email-json']);
const ARN_ENDPOINT = new Set(['sqs', 'lambda', 'firehose', 'application']);

const SETTABLE = new Set([
  'DeliveryPolicy',
  'FilterPolicy',
  'FilterPolicyScope',
  'RawMessageDelivery',
  'RedrivePolicy',
  'SubscriptionRoleArn',
  'ReplayPolicy',
]);

/** Checks a subscription attribute as SNS does. */
export function validateSubscriptionAttribute(name: string, value: string): void {
  if (!SETTABLE.has(name)) throw snsErrors.invalidParameter('AttributeName');
  if (name === 'RawMessageDelivery' && value !== 'true' && value !== 'false') {
    throw snsErrors.invalidParameter('Attributes Reason: RawMessageDelivery: Invalid value [' + value + ']');
  }
  if (name === 'FilterPolicyScope' && !['MessageAttributes', 'MessageBody'].includes(value)) {
    throw snsErrors.invalidParameter(`Attributes Reason: FilterPolicyScope: Invalid value [${value}]`);
  }
  if (['FilterPolicy', 'DeliveryPolicy', 'RedrivePolicy', 'ReplayPolicy'].includes(name) && value !== '') {
    if (!isJson(value)) throw snsErrors.invalidParameter(`${name}: failed to parse JSON.`);
  }
}

/** Subscribes an endpoint; the same topic, protocol and endpoint return the existing one. */
export const subscribe: SnsHandler = async (call) => {
  const topic = requireTopic(call, call.params.get('TopicArn'));
  const protocol = required(call.params, 'Protocol');
  const endpoint = call.params.get('Endpoint') ?? '';
  const attributes = entryMap(call.params, 'Attributes');
  checkSubscription(protocol, endpoint, attributes);
  const existing = call.store
    .subscriptionsOf(topic.arn)
    .find((s) => s.protocol === protocol && s.endpoint === endpoint);
  if (existing) {
    if (Object.entries(attributes).some(([key, value]) => (existing.attributes[key] ?? '') !== value)) {
      throw snsErrors.invalidParameter(
        'Attributes Reason: Subscription already exists with different attributes',
      );
    }
    return [el('SubscriptionArn', existing.arn)];
  }
  const subscription = newSubscription(topic, protocol, endpoint, attributes, call.accountId);
  await call.store.saveSubscription(subscription);
  const pending = subscription.attributes.PendingConfirmation === 'true';
  const visible = !pending || call.params.get('ReturnSubscriptionArn') === 'true';
  return [el('SubscriptionArn', visible ? subscription.arn : 'pending confirmation')];
};

/** Checks a Subscribe's protocol, endpoint and attributes as SNS does. */
export function checkSubscription(
  protocol: string,
  endpoint: string,
  attributes: Record<string, string>,
): void {
  if (!PROTOCOLS.has(protocol)) throw snsErrors.invalidParameter(`Invalid protocol type: ${protocol}`);
  if (ARN_ENDPOINT.has(protocol) && !endpoint.startsWith('arn:')) {
    throw snsErrors.invalidParameter(`${protocol.toUpperCase()} endpoint ARN`);
  }
  for (const [name, value] of Object.entries(attributes)) validateSubscriptionAttribute(name, value);
}

/**
 * A new subscription as SNS makes it: an endpoint that must confirm starts pending. Its ARN is
 * in the topic's account and region, whichever account subscribed (`owner`).
 */
export function newSubscription(
  topic: TopicRecord,
  protocol: string,
  endpoint: string,
  attributes: Record<string, string>,
  owner: string = topic.accountId,
): SubscriptionRecord {
  const pending = CONFIRMED_BY_ENDPOINT.has(protocol);
  return {
    owner,
    arn: `${topic.arn}:${randomUUID()}`,
    topicArn: topic.arn,
    region: topic.region,
    protocol,
    endpoint,
    attributes: {
      RawMessageDelivery: 'false',
      PendingConfirmation: String(pending),
      ConfirmationWasAuthenticated: String(!pending),
      ...attributes,
    },
  };
}

function requireSubscription(call: SnsCall): SubscriptionRecord {
  const subscription = call.store.subscriptions.get(call.params.get('SubscriptionArn') ?? '');
  if (!subscription) throw snsErrors.subscriptionNotFound();
  return subscription;
}

export const unsubscribe: SnsHandler = async (call) => {
  await call.store.deleteSubscription(requireSubscription(call));
  return [];
};

export const getSubscriptionAttributes: SnsHandler = async (call) => {
  const subscription = requireSubscription(call);
  const owner =
    subscription.owner ?? call.store.topics.get(subscription.topicArn)?.accountId ?? call.accountId;
  return [
    entries('Attributes', {
      ...subscription.attributes,
      SubscriptionArn: subscription.arn,
      TopicArn: subscription.topicArn,
      Protocol: subscription.protocol,
      Endpoint: subscription.endpoint,
      Owner: owner,
    }),
  ];
};

export const setSubscriptionAttributes: SnsHandler = async (call) => {
  const subscription = requireSubscription(call);
  const name = required(call.params, 'AttributeName');
  const value = call.params.get('AttributeValue') ?? '';
  validateSubscriptionAttribute(name, value);
  if (value === '') delete subscription.attributes[name];
  else subscription.attributes[name] = value;
  await call.store.saveSubscription(subscription);
  return [];
};

export const listSubscriptionsByTopic: SnsHandler = async (call) => {
  const topic = requireTopic(call, call.params.get('TopicArn'));
  return [
    el(
      'Subscriptions',
      call.store
        .subscriptionsOf(topic.arn)
        .map((s) =>
          el('member', [
            el(
              'SubscriptionArn',
              s.attributes.PendingConfirmation === 'true' ? 'PendingConfirmation' : s.arn,
            ),
            el('Owner', topic.accountId),
            el('Protocol', s.protocol),
            el('Endpoint', s.endpoint),
            el('TopicArn', s.topicArn),
          ]),
        ),
    ),
  ];
};
