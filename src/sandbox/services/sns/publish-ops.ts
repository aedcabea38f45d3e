import { randomUUID } from 'node:crypto';
import { el } from '../../xml.js';
import { lambdaInvoker } from '../lambda/invoker.js';
import { requireTopic, type SnsHandler } from './call.js';
import { required } from './params.js';
import { snsErrors } from './sns-errors.js';
import type { SubscriptionRecord, TopicRecord } from './store.js';

interface Notification {
  messageId: string;
  message: string;
  subject: string | null;
  attributes: Record<string, { Type: string; Value: string }>;
  timestamp: string;
}

/**
 * Publish: the topic's Lambda subscribers are invoked (Event) with SNS's notification
 * record, as SNS delivers to Lambda. Other protocols are accepted and not delivered.
 */
export const publish: SnsHandler = async (call) => {
  const topic = requireTopic(call, call.params.get('TopicArn') ?? call.params.get('TargetArn'));
  const raw = required(call.params, 'Message');
  const notification: Notification = {
    messageId: randomUUID(),
    message: call.params.get('MessageStructure') === 'json' ? perProtocol(raw) : raw,
    subject: call.params.get('Subject'),
    attributes: messageAttributes(call.params),
    timestamp: new Date().toISOString(),
  };
  const invoker = lambdaInvoker(call.context);
  for (const subscription of call.store.subscriptions.values()) {
    if (subscription.topicArn !== topic.arn || subscription.protocol !== 'lambda' || !invoker) continue;
    await invoker.invokeAsync(
      subscription.endpoint,
      JSON.stringify(lambdaEvent(topic, subscription, notification)),
    );
  }
  return [el('MessageId', notification.messageId)];
};

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

function lambdaEvent(
  topic: TopicRecord,
  subscription: SubscriptionRecord,
  notification: Notification,
): unknown {
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: subscription.arn,
        Sns: {
          Type: 'Notification',
          MessageId: notification.messageId,
          TopicArn: topic.arn,
          Subject: notification.subject,
          Message: notification.message,
          Timestamp: notification.timestamp,
          SignatureVersion: '1',
          Signature: 'sandbox',
          SigningCertUrl: `https://sns.${topic.region}.amazonaws.com/SimpleNotificationService-sandbox.pem`,
          UnsubscribeUrl: `https://sns.${topic.region}.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${subscription.arn}`,
          MessageAttributes: notification.attributes,
        },
      },
    ],
  };
}
