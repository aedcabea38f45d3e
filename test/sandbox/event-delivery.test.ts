import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  PutBucketNotificationConfigurationCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { CreateTopicCommand, PublishCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { s3Client } from './helpers.js';

// What one service delivers to another: SNS to its SQS subscribers, S3 event notifications
// to queues and topics, as an app deployed to the sandbox expects them delivered.
let sandbox: Sandbox;
let sqs: SQSClient;
let sns: SNSClient;
const account = '123456789012';
const credentials = { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: account });
  sqs = new SQSClient({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
  sns = new SNSClient({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
});
afterAll(async () => {
  sqs.destroy();
  sns.destroy();
  await sandbox.stop();
});

/** A queue whose policy lets `service` send to it for `sourceArn` (none: no policy). */
async function queue(
  name: string,
  sender?: { service: string; sourceArn: string },
): Promise<{ url: string; arn: string }> {
  const arn = `arn:aws:sqs:us-east-1:${account}:${name}`;
  const policy = sender && {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Service: sender.service },
        Action: 'sqs:SendMessage',
        Resource: arn,
        Condition: { ArnEquals: { 'aws:SourceArn': sender.sourceArn } },
      },
    ],
  };
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      ...(policy ? { Attributes: { Policy: JSON.stringify(policy) } } : {}),
    }),
  );
  return { url: QueueUrl!, arn };
}

const fromTopic = (topicArn: string | undefined) => ({ service: 'sns.amazonaws.com', sourceArn: topicArn! });
const fromBucket = (bucket: string) => ({ service: 's3.amazonaws.com', sourceArn: `arn:aws:s3:::${bucket}` });

function subscribe(TopicArn: string | undefined, queueArn: string, raw: boolean) {
  return sns.send(
    new SubscribeCommand({
      TopicArn,
      Protocol: 'sqs',
      Endpoint: queueArn,
      ...(raw && { Attributes: { RawMessageDelivery: 'true' } }),
    }),
  );
}

async function bodies(url: string): Promise<string[]> {
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }));
  return (Messages ?? []).map((message) => message.Body!);
}

describe('SNS delivers to its SQS subscribers', () => {
  it("in SNS's envelope, or the message alone under RawMessageDelivery", async () => {
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'orders' }));
    const wrapped = await queue('orders-wrapped', fromTopic(TopicArn));
    const raw = await queue('orders-raw', fromTopic(TopicArn));
    await subscribe(TopicArn, wrapped.arn, false);
    await subscribe(TopicArn, raw.arn, true);
    const { MessageId } = await sns.send(
      new PublishCommand({ TopicArn, Message: 'order 7', Subject: 'New' }),
    );

    expect(await bodies(raw.url)).toEqual(['order 7']);
    const [envelope] = (await bodies(wrapped.url)).map((body) => JSON.parse(body));
    expect(envelope).toMatchObject({
      Type: 'Notification',
      MessageId,
      TopicArn,
      Subject: 'New',
      Message: 'order 7',
    });
    expect(envelope.UnsubscribeURL).toContain('Action=Unsubscribe');
  });
});

describe("deliveries the receiver's policy does not allow", () => {
  it('are not delivered, and the call log shows them denied', async () => {
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'alerts' }));
    const open = await queue('alerts-open', fromTopic(TopicArn));
    const closed = await queue('alerts-closed');
    const otherTopic = await queue('alerts-other', fromTopic(`${TopicArn}-other`));
    for (const target of [open, closed, otherTopic]) await subscribe(TopicArn, target.arn, true);
    await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    await sns.send(new PublishCommand({ TopicArn, Message: 'disk full' }));

    expect(await bodies(open.url)).toEqual(['disk full']);
    expect(await bodies(closed.url)).toEqual([]);
    expect(await bodies(otherTopic.url)).toEqual([]);
    const { deliveries } = (await (await fetch(`${sandbox.url}/_sandbox/calls`)).json()) as {
      deliveries: Array<{
        from: string;
        source: string;
        target: string;
        action: string;
        outcome: string;
        reason?: string;
      }>;
    };
    expect(deliveries.map((d) => [d.target, d.outcome])).toEqual([
      [open.arn, 'delivered'],
      [closed.arn, 'denied'],
      [otherTopic.arn, 'denied'],
    ]);
    expect(deliveries[1]).toMatchObject({ from: 'sns', source: TopicArn, action: 'sqs:SendMessage' });
    expect(deliveries[1]!.reason).toContain('AccessDenied');
  });
});

describe('S3 sends event notifications', () => {
  it('to a queue whose events and key filter match, with S3 event records', async () => {
    const s3 = s3Client(sandbox);
    const jobs = await queue('uploads-jobs', fromBucket('uploads'));
    await s3.send(new CreateBucketCommand({ Bucket: 'uploads' }));
    await s3.send(
      new PutBucketNotificationConfigurationCommand({
        Bucket: 'uploads',
        NotificationConfiguration: {
          QueueConfigurations: [
            {
              Id: 'incoming',
              QueueArn: jobs.arn,
              Events: ['s3:ObjectCreated:*'],
              Filter: {
                Key: {
                  FilterRules: [
                    { Name: 'prefix', Value: 'in/' },
                    { Name: 'suffix', Value: '.csv' },
                  ],
                },
              },
            },
          ],
        },
      }),
    );
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'in/day one.csv', Body: 'a,b' }));
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'out/x.csv', Body: 'a,b' }));
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'in/x.txt', Body: 'a,b' }));
    await s3.send(
      new CopyObjectCommand({ Bucket: 'uploads', Key: 'in/copy.csv', CopySource: 'uploads/in/day one.csv' }),
    );
    await s3.send(new DeleteObjectCommand({ Bucket: 'uploads', Key: 'in/copy.csv' }));

    const records = (await bodies(jobs.url)).map((body) => JSON.parse(body).Records[0]);
    expect(records.map((record) => [record.eventName, record.s3.object.key])).toEqual([
      ['ObjectCreated:Put', 'in/day+one.csv'],
      ['ObjectCreated:Copy', 'in/copy.csv'],
    ]);
    expect(records[0]).toMatchObject({
      eventSource: 'aws:s3',
      awsRegion: 'us-east-1',
      s3: {
        configurationId: 'incoming',
        bucket: { name: 'uploads', arn: 'arn:aws:s3:::uploads' },
        object: { size: 3 },
      },
    });
  });

  it('to a topic, which delivers on to its subscribers, for removals and delete markers', async () => {
    const s3 = s3Client(sandbox);
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'removals' }));
    const audit = await queue('removals-audit', fromTopic(TopicArn));
    await subscribe(TopicArn, audit.arn, true);
    await s3.send(new CreateBucketCommand({ Bucket: 'archive' }));
    await s3.send(
      new PutBucketVersioningCommand({ Bucket: 'archive', VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await s3.send(
      new PutBucketNotificationConfigurationCommand({
        Bucket: 'archive',
        NotificationConfiguration: {
          TopicConfigurations: [{ TopicArn, Events: ['s3:ObjectRemoved:*'] }],
        },
      }),
    );
    await s3.send(new PutObjectCommand({ Bucket: 'archive', Key: 'report.pdf', Body: 'pdf' }));
    await s3.send(new DeleteObjectCommand({ Bucket: 'archive', Key: 'report.pdf' }));

    const records = (await bodies(audit.url)).map((body) => JSON.parse(body).Records[0]);
    expect(records.map((record) => [record.eventName, record.s3.object.key])).toEqual([
      ['ObjectRemoved:DeleteMarkerCreated', 'report.pdf'],
    ]);
    expect(records[0].s3.object.versionId).toEqual(expect.any(String));
  });
});
