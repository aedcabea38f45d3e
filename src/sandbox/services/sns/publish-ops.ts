import { randomUUID } from 'node:crypto';
import { el } from '../../xml.js';
import type { SandboxContext } from '../../service-module.js';
import { serviceCaller } from '../../ports/delivery.js';
import { lambdaInvoker, sqsSender } from '../../ports/index.js';
import { requireTopic, type SnsHandler } from './call.js';
import { required } from './params.js';
import { snsErrors } from './sns-errors.js';
import type { SnsStore, SubscriptionRecord, TopicRecord } from './store.js';

export interface Notification {
  messageId: string;
  message: string;
  subject: string | null;
  attributes: Record<string, { Type: string; Value: string }>;
  timestamp: string;
  /** A FIFO topic's message group, which its FIFO queue subscribers keep. */
  groupId?: string;
}

/**
 * Publish: delivered to the topic's Lambda subscribers (invoked with SNS's notification
 * record) and SQS subscribers (SNS's JSON envelope, or the message alone under
 * RawMessageDelivery). Other protocols are accepted and not delivered.
 */
export const publish: SnsHandler = async (call) => {
  const topic = requireTopic(call, call.params.get('TopicArn') ?? call.params.get('TargetArn'));
  const raw = required(call.params, 'Message');
  const groupId = call.params.get('MessageGroupId');
  const notification: Notification = {
    messageId: randomUUID(),
    message: call.params.get('MessageStructure') === 'json' ? perProtocol(raw) : raw,
    subject: call.params.get('Subject'),
    attributes: messageAttributes(call.params),
    timestamp: call.context.clock.iso(),
    ...(groupId !== null ? { groupId } : {}),
  };
  await deliver(call.store, call.context, topic, notification);
  return [el('MessageId', notification.messageId)];
};

/** Sends a notification to each subscriber of the topic that SNS delivers to here. */
export async function deliver(
  store: SnsStore,
  context: SandboxContext,
  topic: TopicRecord,
  notification: Notification,
): Promise<void> {
  const invoker = lambdaInvoker.of(context);
  const sender = sqsSender.of(context);
  const caller = serviceCaller('sns', topic.arn, topic.accountId);
  for (const subscription of store.subscriptions.values()) {
    if (subscription.topicArn !== topic.arn) continue;
    if (subscription.protocol === 'lambda' && invoker) {
      await invoker.invokeAsync(
        subscription.endpoint,
        JSON.stringify({ Records: [lambdaRecord(topic, subscription, notification)] }),
        caller,
      );
    } else if (subscription.protocol === 'sqs' && sender) {
      const body =
        subscription.attributes.RawMessageDelivery === 'true'
          ? notification.message
          : JSON.stringify(envelope(topic, subscription, notification, 'URL'));
      await sender.send(subscription.endpoint, body, {
        ...(notification.groupId !== undefined ? { groupId: notification.groupId } : {}),
        caller,
      });
    }
  }
}

/** With MessageStructure json, Lambda gets the `lambda` member, else `default`. */
function perProtocol(raw: string): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw snsErrors.invalidParameter('Message Structure - JSON message body failed to parse');
  }
  const message = parsed.lambda ?? parsed.default;
  if (typeof message !== 'string') {
    throw snsErrors.invalidParameter('Message Structure - No default entry in JSON message body');
  }
  return message;
}

/** `MessageAttributes.entry.N.Name` / `.Value.DataType` / `.Value.StringValue`. */
function messageAttributes(params: URLSearchParams): Notification['attributes'] {
  const attributes: Notification['attributes'] = {};
  for (let n = 1; params.has(`MessageAttributes.entry.${n}.Name`); n += 1) {
    const prefix = `MessageAttributes.entry.${n}`;
    attributes[params.get(`${prefix}.Name`)!] = {
      Type: params.get(`${prefix}.Value.DataType`) ?? 'String',
      Value: params.get(`${prefix}.Value.StringValue`) ?? params.get(`${prefix}.Value.BinaryValue`) ?? '',
    };
  }
  return attributes;
}

function lambdaRecord(topic: TopicRecord, subscription: SubscriptionRecord, notification: Notification) {
  return {
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    EventSubscriptionArn: subscription.arn,
    Sns: envelope(topic, subscription, notification, 'Url'),
  };
}

/**
 * SNS's notification document. Lambda's record spells the URL keys `SigningCertUrl` and
 * holds a null Subject; a queue's message spells them `SigningCertURL` and leaves it out.
 */
function envelope(
  topic: TopicRecord,
  subscription: SubscriptionRecord,
  notification: Notification,
  urlCase: 'Url' | 'URL',
): Record<string, unknown> {
  return {
    Type: 'Notification',
    MessageId: notification.messageId,
    TopicArn: topic.arn,
    ...(urlCase === 'Url' || notification.subject !== null ? { Subject: notification.subject } : {}),
    Message: notification.message,
    Timestamp: notification.timestamp,
    SignatureVersion: '1',
    Signature: 'sandbox',
    [`SigningCert${urlCase}`]: `https://sns.${topic.region}.amazonaws.com/SimpleNotificationService-sandbox.pem`,
    [`Unsubscribe${urlCase}`]: `https://sns.${topic.region}.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${subscription.arn}`,
    MessageAttributes: notification.attributes,
  };
}
