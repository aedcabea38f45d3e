import {
  GetResourceCommand,
  ListResourcesCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueueTagsCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlCalls } from './cloudcontrol-calls.js';
import { admin, cloudControlClient, failure } from './helpers.js';

const ACCOUNT = '123456789012';
let sandbox: Sandbox;
let cc: CloudControlClient;
let sqs: SQSClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  cc = cloudControlClient(sandbox);
  sqs = new SQSClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  cc.destroy();
  sqs.destroy();
  await sandbox.stop();
});

const { create, patch, remove, properties } = cloudControlCalls(() => cc);

async function attributes(QueueUrl: string): Promise<Record<string, string>> {
  return (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] }))).Attributes!;
}

describe('AWS::SQS::Queue through Cloud Control, on the SQS store', () => {
  it('makes a queue the SQS API finds, sends to and receives from, with its properties as attributes', async () => {
    const event = await create('AWS::SQS::Queue', {
      QueueName: 'cc-orders',
      VisibilityTimeout: 45,
      MessageRetentionPeriod: 3600,
      RedrivePolicy: { deadLetterTargetArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:dlq`, maxReceiveCount: 3 },
      Tags: [{ Key: 'team', Value: 'billing' }],
    });
    expect(event).toMatchObject({ OperationStatus: 'SUCCESS' });
    const url = `${sandbox.url}/${ACCOUNT}/cc-orders`;
    expect(event.Identifier).toBe(url);
    expect((await sqs.send(new GetQueueUrlCommand({ QueueName: 'cc-orders' }))).QueueUrl).toBe(url);
    expect(await attributes(url)).toMatchObject({
      QueueArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:cc-orders`,
      VisibilityTimeout: '45',
      MessageRetentionPeriod: '3600',
      DelaySeconds: '0',
      SqsManagedSseEnabled: 'true',
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:dlq`,
        maxReceiveCount: 3,
      }),
    });
    expect((await sqs.send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags).toEqual({ team: 'billing' });
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'hello' }));
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }));
    expect(received.Messages?.map((m) => m.Body)).toEqual(['hello']);

    expect(await properties('AWS::SQS::Queue', url)).toEqual({
      QueueName: 'cc-orders',
      QueueUrl: url,
      Arn: `arn:aws:sqs:us-east-1:${ACCOUNT}:cc-orders`,
      VisibilityTimeout: 45,
      MessageRetentionPeriod: 3600,
      DelaySeconds: 0,
      MaximumMessageSize: 262144,
      ReceiveMessageWaitTimeSeconds: 0,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:dlq`, maxReceiveCount: 3 },
      Tags: [{ Key: 'team', Value: 'billing' }],
    });
    const { json: inventory } = await admin(sandbox, 'GET', 'inventory');
    const held = Object.values(inventory as Record<string, Record<string, Array<{ id: string }>>>).flatMap(
      (byType) => (byType['AWS::SQS::Queue'] ?? []).map((entry) => entry.id),
    );
    expect(held.filter((id) => id === 'cc-orders')).toHaveLength(1);
  });

  it('updates in place: a property set changes the attribute, one left out returns to the default', async () => {
    const url = (await create('AWS::SQS::Queue', { QueueName: 'cc-update', DelaySeconds: 5 })).Identifier!;
    const event = await patch('AWS::SQS::Queue', url, [
      { op: 'remove', path: '/DelaySeconds' },
      { op: 'add', path: '/VisibilityTimeout', value: 90 },
      { op: 'add', path: '/Tags', value: [{ Key: 'env', Value: 'test' }] },
    ]);
    expect(event.OperationStatus).toBe('SUCCESS');
    expect(await attributes(url)).toMatchObject({ DelaySeconds: '0', VisibilityTimeout: '90' });
    expect((await sqs.send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags).toEqual({ env: 'test' });

    const renamed = await patch('AWS::SQS::Queue', url, [
      { op: 'replace', path: '/QueueName', value: 'other' },
    ]);
    expect(renamed).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'NotUpdatable' });
    const invalid = await patch('AWS::SQS::Queue', url, [{ op: 'add', path: '/DelaySeconds', value: 5000 }]);
    expect(invalid).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'InvalidRequest' });
    expect((await attributes(url)).VisibilityTimeout).toBe('90');
  });

  it('generates a FIFO name ending in .fifo and keeps the FIFO settings', async () => {
    const event = await create('AWS::SQS::Queue', { FifoQueue: true, ContentBasedDeduplication: true });
    expect(event.Identifier).toMatch(new RegExp(`/${ACCOUNT}/Queue-[A-Z0-9]{12}\\.fifo$`));
    expect(await attributes(event.Identifier!)).toMatchObject({
      FifoQueue: 'true',
      ContentBasedDeduplication: 'true',
    });
    expect(await properties('AWS::SQS::Queue', event.Identifier!)).toMatchObject({
      FifoQueue: true,
      ContentBasedDeduplication: true,
    });
  });

  it('reads and lists a queue the SQS API made, by the URL SQS answered', async () => {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: 'api-made', Attributes: { DelaySeconds: '7' } }),
    );
    expect(await properties('AWS::SQS::Queue', QueueUrl!)).toMatchObject({
      QueueName: 'api-made',
      QueueUrl,
      DelaySeconds: 7,
    });
    const listed = await cc.send(new ListResourcesCommand({ TypeName: 'AWS::SQS::Queue' }));
    expect(listed.ResourceDescriptions?.map((d) => d.Identifier)).toContain(QueueUrl);
  });

  it('refuses a name SQS holds as AlreadyExists, and deletes so the SQS API no longer finds it', async () => {
    const url = (await create('AWS::SQS::Queue', { QueueName: 'cc-gone' })).Identifier!;
    expect((await create('AWS::SQS::Queue', { QueueName: 'cc-gone' })).ErrorCode).toBe('AlreadyExists');
    expect((await remove('AWS::SQS::Queue', url)).OperationStatus).toBe('SUCCESS');
    const missing = await failure(sqs.send(new GetQueueUrlCommand({ QueueName: 'cc-gone' })));
    expect(missing.name).toBe('QueueDoesNotExist');
    const again = await failure(
      cc.send(new GetResourceCommand({ TypeName: 'AWS::SQS::Queue', Identifier: url })),
    );
    expect(again.name).toBe('ResourceNotFoundException');
  });
});

describe('AWS::SQS::QueuePolicy through Cloud Control', () => {
  it("sets each listed queue's Policy, moves it on update, and clears it on delete", async () => {
    const first = (await create('AWS::SQS::Queue', { QueueName: 'policed-1' })).Identifier!;
    const second = (await create('AWS::SQS::Queue', { QueueName: 'policed-2' })).Identifier!;
    const document = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'sns.amazonaws.com' },
          Action: 'sqs:SendMessage',
          Resource: '*',
        },
      ],
    };
    const event = await create('AWS::SQS::QueuePolicy', { Queues: [first], PolicyDocument: document });
    expect(event.OperationStatus).toBe('SUCCESS');
    const id = event.Identifier!;
    expect(JSON.parse((await attributes(first)).Policy!)).toEqual(document);
    expect(await properties('AWS::SQS::QueuePolicy', id)).toEqual({
      Id: id,
      Queues: [first],
      PolicyDocument: document,
    });

    expect(
      (await patch('AWS::SQS::QueuePolicy', id, [{ op: 'replace', path: '/Queues', value: [second] }]))
        .OperationStatus,
    ).toBe('SUCCESS');
    expect((await attributes(first)).Policy).toBeUndefined();
    expect(JSON.parse((await attributes(second)).Policy!)).toEqual(document);
    const { json: inventory } = await admin(sandbox, 'GET', 'inventory');
    expect((inventory as { sqs: Record<string, unknown[]> }).sqs['AWS::SQS::QueuePolicy']).toContainEqual(
      expect.objectContaining({ id, targets: [second] }),
    );

    await remove('AWS::SQS::QueuePolicy', id);
    expect((await attributes(second)).Policy).toBeUndefined();
    const missing = await create('AWS::SQS::QueuePolicy', {
      Queues: [`${sandbox.url}/${ACCOUNT}/nowhere`],
      PolicyDocument: document,
    });
    expect(missing).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'InvalidRequest' });
  });
});
