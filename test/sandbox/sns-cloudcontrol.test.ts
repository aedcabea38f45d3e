import { CloudControlClient, ListResourcesCommand } from '@aws-sdk/client-cloudcontrol';
import {
  CreateTopicCommand,
  GetSubscriptionAttributesCommand,
  GetTopicAttributesCommand,
  ListSubscriptionsByTopicCommand,
  ListTagsForResourceCommand,
  PublishCommand,
  SNSClient,
} from '@aws-sdk/client-sns';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlCalls } from './cloudcontrol-calls.js';
import { admin, cloudControlClient, failure } from './helpers.js';

const ACCOUNT = '123456789012';
const credentials = { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' };
let sandbox: Sandbox;
let cc: CloudControlClient;
let sns: SNSClient;
let sqs: SQSClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  cc = cloudControlClient(sandbox);
  sns = new SNSClient({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
  sqs = new SQSClient({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
});
afterAll(async () => {
  cc.destroy();
  sns.destroy();
  sqs.destroy();
  await sandbox.stop();
});

const { create, patch, remove, properties } = cloudControlCalls(() => cc);

const topicAttributes = async (TopicArn: string) =>
  (await sns.send(new GetTopicAttributesCommand({ TopicArn }))).Attributes!;

async function bodies(QueueUrl: string): Promise<string[]> {
  const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
  return (Messages ?? []).map((message) => message.Body!);
}

const sendPolicy = (queueArn: string, topicArn: string) => ({
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Principal: { Service: 'sns.amazonaws.com' },
      Action: 'sqs:SendMessage',
      Resource: queueArn,
      Condition: { ArnEquals: { 'aws:SourceArn': topicArn } },
    },
  ],
});

describe('AWS::SNS::Topic through Cloud Control, on the SNS store', () => {
  it('makes a topic the SNS API reads, updates it in place and deletes it', async () => {
    const event = await create('AWS::SNS::Topic', {
      TopicName: 'cc-alerts',
      DisplayName: 'Alerts',
      Tags: [{ Key: 'team', Value: 'ops' }],
    });
    const arn = `arn:aws:sns:us-east-1:${ACCOUNT}:cc-alerts`;
    expect(event).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: arn });
    expect(await topicAttributes(arn)).toMatchObject({
      TopicArn: arn,
      DisplayName: 'Alerts',
      Owner: ACCOUNT,
    });
    expect(JSON.parse((await topicAttributes(arn)).Policy!).Statement[0].Resource).toBe(arn);
    expect((await sns.send(new ListTagsForResourceCommand({ ResourceArn: arn }))).Tags).toEqual([
      { Key: 'team', Value: 'ops' },
    ]);
    expect(await properties('AWS::SNS::Topic', arn)).toEqual({
      TopicArn: arn,
      TopicName: 'cc-alerts',
      DisplayName: 'Alerts',
      Tags: [{ Key: 'team', Value: 'ops' }],
    });

    expect(
      (await patch('AWS::SNS::Topic', arn, [{ op: 'remove', path: '/DisplayName' }])).OperationStatus,
    ).toBe('SUCCESS');
    expect((await topicAttributes(arn)).DisplayName).toBeUndefined();
    const renamed = await patch('AWS::SNS::Topic', arn, [{ op: 'replace', path: '/TopicName', value: 'x' }]);
    expect(renamed).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'NotUpdatable' });

    expect((await remove('AWS::SNS::Topic', arn)).OperationStatus).toBe('SUCCESS');
    expect((await failure(sns.send(new GetTopicAttributesCommand({ TopicArn: arn })))).name).toBe(
      'NotFoundException',
    );
  });

  it('generates a FIFO name ending in .fifo', async () => {
    const event = await create('AWS::SNS::Topic', { FifoTopic: true });
    expect(event.Identifier).toMatch(new RegExp(`:${ACCOUNT}:Topic-[A-Z0-9]{12}\\.fifo$`));
    expect(await topicAttributes(event.Identifier!)).toMatchObject({ FifoTopic: 'true' });
  });

  it('reads and lists a topic the SNS API made', async () => {
    const { TopicArn } = await sns.send(
      new CreateTopicCommand({ Name: 'api-topic', Attributes: { DisplayName: 'Made by SNS' } }),
    );
    expect(await properties('AWS::SNS::Topic', TopicArn!)).toMatchObject({
      TopicArn,
      TopicName: 'api-topic',
      DisplayName: 'Made by SNS',
    });
    const listed = await cc.send(new ListResourcesCommand({ TypeName: 'AWS::SNS::Topic' }));
    expect(listed.ResourceDescriptions?.map((d) => d.Identifier)).toContain(TopicArn);
  });

  it("subscribes the Subscription list's endpoints, and an update drops only the ones it owned", async () => {
    const queueArn = `arn:aws:sqs:us-east-1:${ACCOUNT}:listed`;
    const otherArn = `arn:aws:sqs:us-east-1:${ACCOUNT}:separate`;
    const arn = (
      await create('AWS::SNS::Topic', {
        TopicName: 'with-list',
        Subscription: [{ Protocol: 'sqs', Endpoint: queueArn }],
      })
    ).Identifier!;
    const separate = await create('AWS::SNS::Subscription', {
      TopicArn: arn,
      Protocol: 'sqs',
      Endpoint: otherArn,
    });
    const endpoints = async () =>
      ((await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: arn }))).Subscriptions ?? [])
        .map((s) => s.Endpoint)
        .sort();
    expect(await endpoints()).toEqual([queueArn, otherArn].sort());
    expect((await properties('AWS::SNS::Topic', arn)).Subscription).toEqual([
      { Protocol: 'sqs', Endpoint: queueArn },
    ]);

    expect(
      (await patch('AWS::SNS::Topic', arn, [{ op: 'remove', path: '/Subscription' }])).OperationStatus,
    ).toBe('SUCCESS');
    expect(await endpoints()).toEqual([otherArn]);
    expect((await properties('AWS::SNS::Subscription', separate.Identifier!)).Endpoint).toBe(otherArn);
  });
});

describe('AWS::SNS::Subscription and AWS::SQS::QueuePolicy through Cloud Control', () => {
  it('delivers a published message to a queue whose QueuePolicy allows the topic, raw or enveloped', async () => {
    const topicArn = (await create('AWS::SNS::Topic', { TopicName: 'orders' })).Identifier!;
    const queueUrl = (await create('AWS::SQS::Queue', { QueueName: 'order-inbox' })).Identifier!;
    const queueArn = (await properties('AWS::SQS::Queue', queueUrl)).Arn as string;
    const subscription = await create('AWS::SNS::Subscription', {
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: queueArn,
      RawMessageDelivery: true,
      FilterPolicy: { kind: ['order'] },
    });
    expect(subscription.OperationStatus).toBe('SUCCESS');
    const subscriptionArn = subscription.Identifier!;
    expect(subscriptionArn.startsWith(`${topicArn}:`)).toBe(true);
    expect(
      (await sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn: subscriptionArn }))).Attributes,
    ).toMatchObject({ RawMessageDelivery: 'true', FilterPolicy: '{"kind":["order"]}', Endpoint: queueArn });
    const order = { kind: { DataType: 'String', StringValue: 'order' } };

    // No policy lets the topic send to the queue yet.
    await sns.send(new PublishCommand({ TopicArn: topicArn, Message: 'early', MessageAttributes: order }));
    expect(await bodies(queueUrl)).toEqual([]);

    const policy = await create('AWS::SQS::QueuePolicy', {
      Queues: [queueUrl],
      PolicyDocument: sendPolicy(queueArn, topicArn),
    });
    expect(policy.OperationStatus).toBe('SUCCESS');
    await sns.send(new PublishCommand({ TopicArn: topicArn, Message: 'order 1', MessageAttributes: order }));
    expect(await bodies(queueUrl)).toEqual(['order 1']);

    expect(
      (
        await patch('AWS::SNS::Subscription', subscriptionArn, [
          { op: 'remove', path: '/RawMessageDelivery' },
        ])
      ).OperationStatus,
    ).toBe('SUCCESS');
    await sns.send(new PublishCommand({ TopicArn: topicArn, Message: 'order 2', MessageAttributes: order }));
    const [envelope] = (await bodies(queueUrl)).map((body) => JSON.parse(body) as Record<string, unknown>);
    expect(envelope).toMatchObject({ Type: 'Notification', TopicArn: topicArn, Message: 'order 2' });

    const { json: inventory } = await admin(sandbox, 'GET', 'inventory');
    const held = Object.values(inventory as Record<string, Record<string, Array<{ id: string }>>>).flatMap(
      (byType) => (byType['AWS::SNS::Subscription'] ?? []).map((entry) => entry.id),
    );
    expect(held.filter((id) => id === subscriptionArn)).toHaveLength(1);

    expect((await remove('AWS::SNS::Subscription', subscriptionArn)).OperationStatus).toBe('SUCCESS');
    const gone = await failure(
      sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn: subscriptionArn })),
    );
    expect(gone.name).toBe('NotFoundException');
  });

  it("subscribes to another account's topic in the region Region names, as the subscriber's own", async () => {
    // An access key id of 12 digits selects that account.
    const ownerCredentials = { accessKeyId: '111111111111', secretAccessKey: 'sandbox-secret' };
    const ownerCc = new CloudControlClient({
      endpoint: sandbox.url,
      region: 'us-west-2',
      credentials: ownerCredentials,
      maxAttempts: 1,
    });
    const topicArn = (
      await cloudControlCalls(() => ownerCc).create('AWS::SNS::Topic', { TopicName: 'shared' })
    ).Identifier!;
    ownerCc.destroy();
    expect(topicArn).toBe('arn:aws:sns:us-west-2:111111111111:shared');
    const queueArn = `arn:aws:sqs:us-east-1:${ACCOUNT}:inbox`;

    const elsewhere = await create('AWS::SNS::Subscription', {
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: queueArn,
    });
    expect(elsewhere).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'NotFound' });

    const made = await create('AWS::SNS::Subscription', {
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: queueArn,
      Region: 'us-west-2',
    });
    expect(made.OperationStatus).toBe('SUCCESS');
    const subscriptionArn = made.Identifier!;
    expect(subscriptionArn.startsWith(`${topicArn}:`)).toBe(true);
    expect(await properties('AWS::SNS::Subscription', subscriptionArn)).toMatchObject({
      TopicArn: topicArn,
      Region: 'us-west-2',
      Endpoint: queueArn,
    });
    const westSns = new SNSClient({
      endpoint: sandbox.url,
      region: 'us-west-2',
      credentials,
      maxAttempts: 1,
    });
    expect(
      (await westSns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn: subscriptionArn })))
        .Attributes,
    ).toMatchObject({ Owner: ACCOUNT, TopicArn: topicArn });
    westSns.destroy();

    expect((await remove('AWS::SNS::Subscription', subscriptionArn)).OperationStatus).toBe('SUCCESS');
  });

  it('fails a subscription to a topic that does not exist', async () => {
    const event = await create('AWS::SNS::Subscription', {
      TopicArn: `arn:aws:sns:us-east-1:${ACCOUNT}:absent`,
      Protocol: 'sqs',
      Endpoint: `arn:aws:sqs:us-east-1:${ACCOUNT}:q`,
    });
    expect(event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'NotFound' });
  });
});

describe('AWS::SNS::TopicPolicy through Cloud Control', () => {
  it("sets the topic's policy, and deleting it gives the topic SNS's default policy back", async () => {
    const arn = (await create('AWS::SNS::Topic', { TopicName: 'guarded' })).Identifier!;
    const defaultPolicy = (await topicAttributes(arn)).Policy!;
    const document = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'events.amazonaws.com' },
          Action: 'sns:Publish',
          Resource: arn,
        },
      ],
    };
    const event = await create('AWS::SNS::TopicPolicy', { Topics: [arn], PolicyDocument: document });
    expect(event.OperationStatus).toBe('SUCCESS');
    expect(JSON.parse((await topicAttributes(arn)).Policy!)).toEqual(document);
    expect(await properties('AWS::SNS::TopicPolicy', event.Identifier!)).toEqual({
      Id: event.Identifier,
      Topics: [arn],
      PolicyDocument: document,
    });
    expect((await remove('AWS::SNS::TopicPolicy', event.Identifier!)).OperationStatus).toBe('SUCCESS');
    expect((await topicAttributes(arn)).Policy).toBe(defaultPolicy);
  });
});

describe('SQS and SNS resources made through Cloud Control, across a restart', () => {
  it('keeps queue and topic policies and the subscriptions a topic owns on the same data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cc-messaging-'));
    try {
      const first = await startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
      const client = cloudControlClient(first);
      const made = async (TypeName: string, desired: Record<string, unknown>) =>
        (await cloudControlCalls(() => client).create(TypeName, desired)).Identifier!;
      const queueArn = `arn:aws:sqs:us-east-1:${ACCOUNT}:kept`;
      const topicArn = await made('AWS::SNS::Topic', {
        TopicName: 'kept',
        Subscription: [{ Protocol: 'sqs', Endpoint: queueArn }],
      });
      const queueUrl = await made('AWS::SQS::Queue', { QueueName: 'kept' });
      const queuePolicy = await made('AWS::SQS::QueuePolicy', {
        Queues: [queueUrl],
        PolicyDocument: sendPolicy(queueArn, topicArn),
      });
      client.destroy();
      await first.stop();

      const second = await startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
      const again = cloudControlClient(second);
      const read = cloudControlCalls(() => again).properties;
      expect((await read('AWS::SNS::Topic', topicArn)).Subscription).toEqual([
        { Protocol: 'sqs', Endpoint: queueArn },
      ]);
      expect(await read('AWS::SQS::QueuePolicy', queuePolicy)).toMatchObject({ Queues: [queueUrl] });
      again.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
