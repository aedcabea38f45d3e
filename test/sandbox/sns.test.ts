import {
  CreateTopicCommand,
  DeleteTopicCommand,
  GetSubscriptionAttributesCommand,
  GetTopicAttributesCommand,
  ListSubscriptionsByTopicCommand,
  ListTagsForResourceCommand,
  SetSubscriptionAttributesCommand,
  SetTopicAttributesCommand,
  SNSClient,
  SubscribeCommand,
  TagResourceCommand,
  UnsubscribeCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-sns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure } from './helpers.js';

let sandbox: Sandbox;
let sns: SNSClient;
const account = '123456789012';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: account });
  sns = new SNSClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  sns.destroy();
  await sandbox.stop();
});

describe('sandbox SNS over the query protocol', () => {
  it('creates a topic idempotently and refuses the same name with other attributes', async () => {
    const { TopicArn } = await sns.send(
      new CreateTopicCommand({
        Name: 'alerts',
        Attributes: { DisplayName: 'Alerts' },
        Tags: [{ Key: 'a', Value: '1' }],
      }),
    );
    expect(TopicArn).toBe(`arn:aws:sns:us-east-1:${account}:alerts`);
    const again = await sns.send(
      new CreateTopicCommand({ Name: 'alerts', Attributes: { DisplayName: 'Alerts' } }),
    );
    expect(again.TopicArn).toBe(TopicArn);
    const clash = await failure(
      sns.send(new CreateTopicCommand({ Name: 'alerts', Attributes: { DisplayName: 'Other' } })),
    );
    expect(clash.name).toBe('InvalidParameterException');
    expect(clash.error.Code ?? clash.name).toMatch(/InvalidParameter/);
    expect(clash.status).toBe(400);
    const { Attributes } = await sns.send(new GetTopicAttributesCommand({ TopicArn }));
    expect(Attributes).toMatchObject({
      DisplayName: 'Alerts',
      TopicArn,
      Owner: account,
      SubscriptionsConfirmed: '0',
    });
    expect(JSON.parse(Attributes!.Policy!).Statement[0].Resource).toBe(TopicArn);
  });

  it('validates FIFO topic names and answers a missing topic with NotFound 404', async () => {
    const bad = await failure(
      sns.send(new CreateTopicCommand({ Name: 'jobs', Attributes: { FifoTopic: 'true' } })),
    );
    expect(bad.name).toBe('InvalidParameterException');
    const fifo = await sns.send(
      new CreateTopicCommand({ Name: 'jobs.fifo', Attributes: { FifoTopic: 'true' } }),
    );
    expect(fifo.TopicArn).toMatch(/jobs\.fifo$/);
    const missing = await failure(
      sns.send(new GetTopicAttributesCommand({ TopicArn: `arn:aws:sns:us-east-1:${account}:nope` })),
    );
    expect(missing.name).toBe('NotFoundException');
    expect(missing.status).toBe(404);
    await sns.send(new DeleteTopicCommand({ TopicArn: `arn:aws:sns:us-east-1:${account}:nope` }));
  });

  it('sets topic attributes and tags', async () => {
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'settable' }));
    await sns.send(
      new SetTopicAttributesCommand({
        TopicArn,
        AttributeName: 'KmsMasterKeyId',
        AttributeValue: 'alias/aws/sns',
      }),
    );
    expect((await sns.send(new GetTopicAttributesCommand({ TopicArn }))).Attributes!.KmsMasterKeyId).toBe(
      'alias/aws/sns',
    );
    const wrong = await failure(
      sns.send(
        new SetTopicAttributesCommand({ TopicArn, AttributeName: 'FifoTopic', AttributeValue: 'true' }),
      ),
    );
    expect(wrong.name).toBe('InvalidParameterException');
    await sns.send(
      new TagResourceCommand({
        ResourceArn: TopicArn,
        Tags: [
          { Key: 'x', Value: '1' },
          { Key: 'y', Value: '2' },
        ],
      }),
    );
    await sns.send(new UntagResourceCommand({ ResourceArn: TopicArn, TagKeys: ['x'] }));
    expect((await sns.send(new ListTagsForResourceCommand({ ResourceArn: TopicArn }))).Tags).toEqual([
      { Key: 'y', Value: '2' },
    ]);
  });

  it('subscribes, updates subscription attributes, lists and unsubscribes', async () => {
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'fanout' }));
    const endpoint = `arn:aws:sqs:us-east-1:${account}:q`;
    const { SubscriptionArn } = await sns.send(
      new SubscribeCommand({
        TopicArn,
        Protocol: 'sqs',
        Endpoint: endpoint,
        Attributes: { RawMessageDelivery: 'true' },
      }),
    );
    expect(SubscriptionArn).toMatch(new RegExp(`^${TopicArn}:`));
    const again = await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: endpoint }));
    expect(again.SubscriptionArn).toBe(SubscriptionArn);
    await sns.send(
      new SetSubscriptionAttributesCommand({
        SubscriptionArn,
        AttributeName: 'FilterPolicy',
        AttributeValue: '{"a":["b"]}',
      }),
    );
    const badFilter = await failure(
      sns.send(
        new SetSubscriptionAttributesCommand({
          SubscriptionArn,
          AttributeName: 'FilterPolicy',
          AttributeValue: '{',
        }),
      ),
    );
    expect(badFilter.name).toBe('InvalidParameterException');
    const { Attributes } = await sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn }));
    expect(Attributes).toMatchObject({
      Protocol: 'sqs',
      Endpoint: endpoint,
      RawMessageDelivery: 'true',
      FilterPolicy: '{"a":["b"]}',
      PendingConfirmation: 'false',
    });
    const listed = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn }));
    expect(listed.Subscriptions?.map((s) => s.SubscriptionArn)).toEqual([SubscriptionArn]);
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(JSON.stringify(inventory.json)).toContain(SubscriptionArn);
    await sns.send(new UnsubscribeCommand({ SubscriptionArn }));
    const gone = await failure(sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn })));
    expect(gone.name).toBe('NotFoundException');
  });

  it('refuses an SQS subscription whose endpoint is not an ARN, and deletes subscriptions with the topic', async () => {
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'doomed' }));
    const bad = await failure(
      sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: 'not-an-arn' })),
    );
    expect(bad.name).toBe('InvalidParameterException');
    const { SubscriptionArn } = await sns.send(
      new SubscribeCommand({
        TopicArn,
        Protocol: 'lambda',
        Endpoint: `arn:aws:lambda:us-east-1:${account}:function:f`,
      }),
    );
    await sns.send(new DeleteTopicCommand({ TopicArn }));
    const gone = await failure(sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn })));
    expect(gone.name).toBe('NotFoundException');
  });
});
