import {
  CreateQueueCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueuesCommand,
  ListQueueTagsCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
  TagQueueCommand,
  UntagQueueCommand,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryClassOf } from '../../src/providers/retry-class.js';
import { builtinServices } from '../../src/sandbox/services/index.js';
import { createSqsService, sqsService } from '../../src/sandbox/services/sqs/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure } from './helpers.js';

let sandbox: Sandbox;
let sqs: SQSClient;
let now = 1_000_000;

beforeAll(async () => {
  const services = builtinServices.filter((factory) => factory !== createSqsService);
  sandbox = await startSandbox({
    port: 0,
    accountId: '123456789012',
    services: [...services, sqsService({ deleteCooldownMs: 60_000, now: () => now })],
  });
  sqs = new SQSClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  sqs.destroy();
  await sandbox.stop();
});

describe('sandbox SQS over JSON 1.0', () => {
  it('creates a queue whose URL points back at the sandbox, and reads its attributes', async () => {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: 'orders', Attributes: { VisibilityTimeout: '45' } }),
    );
    expect(QueueUrl).toBe(`${sandbox.url}/123456789012/orders`);
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] }),
    );
    expect(Attributes).toMatchObject({
      QueueArn: 'arn:aws:sqs:us-east-1:123456789012:orders',
      VisibilityTimeout: '45',
      DelaySeconds: '0',
      MessageRetentionPeriod: '345600',
      SqsManagedSseEnabled: 'true',
    });
    expect((await sqs.send(new GetQueueUrlCommand({ QueueName: 'orders' }))).QueueUrl).toBe(QueueUrl);
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(JSON.stringify(inventory.json)).toContain('arn:aws:sqs:us-east-1:123456789012:orders');
  });

  it('returns the existing queue for the same attributes and QueueNameExists for others', async () => {
    const first = await sqs.send(
      new CreateQueueCommand({ QueueName: 'same', Attributes: { DelaySeconds: '5' } }),
    );
    const again = await sqs.send(
      new CreateQueueCommand({ QueueName: 'same', Attributes: { DelaySeconds: '5' } }),
    );
    expect(again.QueueUrl).toBe(first.QueueUrl);
    const clash = await failure(
      sqs.send(new CreateQueueCommand({ QueueName: 'same', Attributes: { DelaySeconds: '6' } })),
    );
    expect(clash.name).toBe('QueueNameExists');
    expect(clash.status).toBe(400);
    expect(clash.error.Code).toBe('QueueAlreadyExists');
  });

  it('refuses a re-create within the cooldown with QueueDeletedRecently, then allows it', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'cooling' }));
    await sqs.send(new DeleteQueueCommand({ QueueUrl }));
    const refused = await failure(sqs.send(new CreateQueueCommand({ QueueName: 'cooling' })));
    expect(refused.name).toBe('QueueDeletedRecently');
    expect(refused.error.Code).toBe('AWS.SimpleQueueService.QueueDeletedRecently');
    expect(retryClassOf(refused.error)).toBe('name-cooldown');
    now += 60_000;
    await sqs.send(new CreateQueueCommand({ QueueName: 'cooling' }));
  });

  it('answers a missing queue with QueueDoesNotExist (AWS.SimpleQueueService.NonExistentQueue)', async () => {
    const missing = await failure(sqs.send(new GetQueueUrlCommand({ QueueName: 'nope' })));
    expect(missing.name).toBe('QueueDoesNotExist');
    expect(missing.error.Code).toBe('AWS.SimpleQueueService.NonExistentQueue');
    const deleted = await failure(
      sqs.send(new DeleteQueueCommand({ QueueUrl: `${sandbox.url}/123456789012/nope` })),
    );
    expect(deleted.name).toBe('QueueDoesNotExist');
  });

  it('validates FIFO names and attribute values', async () => {
    const badName = await failure(
      sqs.send(new CreateQueueCommand({ QueueName: 'jobs', Attributes: { FifoQueue: 'true' } })),
    );
    expect(badName.name).toBe('InvalidParameterValue');
    const fifo = await sqs.send(
      new CreateQueueCommand({ QueueName: 'jobs.fifo', Attributes: { FifoQueue: 'true' } }),
    );
    const set = await failure(
      sqs.send(
        new SetQueueAttributesCommand({ QueueUrl: fifo.QueueUrl, Attributes: { FifoQueue: 'false' } }),
      ),
    );
    expect(set.name).toBe('InvalidAttributeName');
    const range = await failure(
      sqs.send(
        new SetQueueAttributesCommand({
          QueueUrl: fifo.QueueUrl,
          Attributes: { VisibilityTimeout: '50000' },
        }),
      ),
    );
    expect(range.name).toBe('InvalidAttributeValue');
  });

  it('sets and clears attributes, KMS replacing SQS-managed SSE', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'attrs' }));
    await sqs.send(
      new SetQueueAttributesCommand({
        QueueUrl,
        Attributes: { KmsMasterKeyId: 'alias/aws/sqs', Policy: '{"Version":"2012-10-17","Statement":[]}' },
      }),
    );
    let { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] }));
    expect(Attributes).toMatchObject({ KmsMasterKeyId: 'alias/aws/sqs', SqsManagedSseEnabled: 'false' });
    expect(Attributes!.Policy).toContain('2012-10-17');
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: { Policy: '' } }));
    ({ Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] })));
    expect(Attributes!.Policy).toBeUndefined();
  });

  it('tags, untags and lists queues', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'tagged', tags: { a: '1' } }));
    await sqs.send(new TagQueueCommand({ QueueUrl, Tags: { b: '2' } }));
    await sqs.send(new UntagQueueCommand({ QueueUrl, TagKeys: ['a'] }));
    expect((await sqs.send(new ListQueueTagsCommand({ QueueUrl }))).Tags).toEqual({ b: '2' });
    const listed = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'tag' }));
    expect(listed.QueueUrls).toEqual([QueueUrl]);
  });

  it('sends, receives and deletes a message', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'messages' }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'hello' }));
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl }));
    expect(Messages?.map((m) => m.Body)).toEqual(['hello']);
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl }))).Messages).toBeUndefined();
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: Messages![0]!.ReceiptHandle }));
    now += 31_000;
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl }))).Messages).toBeUndefined();
  });
});
