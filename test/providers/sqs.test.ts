import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { ResourceMadeError, type ProviderContext } from '../../src/providers/provider.js';
import { registerSqs } from '../../src/providers/sqs/index.js';
import { QueuePolicyProvider } from '../../src/providers/sqs/queue-policy.js';
import { generatedQueueName, QueueProvider } from '../../src/providers/sqs/queue.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { ACCOUNT, engineWith, providerContext, startProviderSandbox } from './sqs-helpers.js';

let sandbox: Sandbox;
let context: ProviderContext;
let sqs: SQSClient;
const queues = new QueueProvider();
const policies = new QueuePolicyProvider();
const type = 'AWS::SQS::Queue';

beforeAll(async () => {
  sandbox = await startProviderSandbox();
  context = providerContext('Shop');
  sqs = await context.clients.client(SQSClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox));
afterAll(async () => {
  await sandbox.stop();
});

async function attributesOf(url: string): Promise<Record<string, string>> {
  return (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] })))
    .Attributes!;
}

describe('AWS::SQS::Queue provider', () => {
  it('creates with CloudFormation-typed values, updates in place, reads back and deletes', async () => {
    const properties = {
      QueueName: 'orders',
      VisibilityTimeout: '45',
      DelaySeconds: 5,
      Tags: [{ Key: 'team', Value: 'a' }],
    };
    const created = await queues.create({ logicalId: 'Orders', type, properties }, context);
    expect(created.physicalId).toBe(`${sandbox.url}/${ACCOUNT}/orders`);
    expect(created.creationIdentity).toMatchObject({ Arn: `arn:aws:sqs:us-east-1:${ACCOUNT}:orders` });
    expect(await attributesOf(created.physicalId)).toMatchObject({
      VisibilityTimeout: '45',
      DelaySeconds: '5',
    });

    const next = { QueueName: 'orders', VisibilityTimeout: 60, Tags: [{ Key: 'team', Value: 'b' }] };
    expect(queues.canUpdateInPlace(type, ['VisibilityTimeout', 'DelaySeconds', 'Tags'])).toBe(true);
    await queues.update(
      {
        logicalId: 'Orders',
        type,
        properties: next,
        previousProperties: properties,
        physicalId: created.physicalId,
      },
      context,
    );
    const live = await queues.read(
      { logicalId: 'Orders', type, physicalId: created.physicalId, properties: next },
      context,
    );
    expect(live!.properties).toMatchObject({
      QueueName: 'orders',
      VisibilityTimeout: 60,
      DelaySeconds: 0,
      Tags: [{ Key: 'team', Value: 'b' }],
    });

    await queues.delete(
      { logicalId: 'Orders', type, physicalId: created.physicalId, properties: next },
      context,
    );
    expect(
      await queues.read(
        { logicalId: 'Orders', type, physicalId: created.physicalId, properties: next },
        context,
      ),
    ).toBeUndefined();
    await queues.delete(
      { logicalId: 'Orders', type, physicalId: created.physicalId, properties: next },
      context,
    );
  });

  it('sets and removes a redrive policy and KMS encryption in place', async () => {
    const dlq = await queues.create({ logicalId: 'Dlq', type, properties: {} }, context);
    const redrive = {
      RedrivePolicy: { deadLetterTargetArn: dlq.attributes.Arn, maxReceiveCount: '3' },
      KmsMasterKeyId: 'alias/aws/sqs',
    };
    const queue = await queues.create({ logicalId: 'Work', type, properties: redrive }, context);
    let attributes = await attributesOf(queue.physicalId);
    expect(JSON.parse(attributes.RedrivePolicy!)).toMatchObject({ deadLetterTargetArn: dlq.attributes.Arn });
    expect(attributes).toMatchObject({ KmsMasterKeyId: 'alias/aws/sqs', SqsManagedSseEnabled: 'false' });
    await queues.update(
      { logicalId: 'Work', type, properties: {}, previousProperties: redrive, physicalId: queue.physicalId },
      context,
    );
    attributes = await attributesOf(queue.physicalId);
    expect(attributes.RedrivePolicy).toBeUndefined();
    expect(attributes.KmsMasterKeyId).toBeUndefined();
    expect(attributes.SqsManagedSseEnabled).toBe('true');
  });

  it('generates CloudFormation-style names, FIFO names keeping .fifo within 80 characters', async () => {
    const long = 'S'.repeat(100);
    const standard = generatedQueueName(long, 'L'.repeat(100), false);
    const fifo = generatedQueueName(long, 'L'.repeat(100), true);
    expect(standard).toHaveLength(80);
    expect(standard).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fifo).toHaveLength(80);
    expect(fifo.endsWith('.fifo')).toBe(true);
    const created = await queues.create(
      { logicalId: 'Jobs', type, properties: { FifoQueue: 'true' } },
      context,
    );
    expect(created.attributes.QueueName).toMatch(/^Shop-Jobs-[A-Z0-9]{12}\.fifo$/);
    expect((await attributesOf(created.physicalId)).FifoQueue).toBe('true');
  });

  it('a retried create of an unnamed queue (same idempotency token) gets the same queue', async () => {
    const request = {
      logicalId: 'Retry',
      type,
      properties: { DelaySeconds: 1 },
      idempotencyToken: 'sqs-create',
    };
    const first = await queues.create(request, context);
    const again = await queues.create(request, context);
    expect(again.physicalId).toBe(first.physicalId);
    expect(again.creationIdentity).toEqual(first.creationIdentity);
  });

  it('reports an unnamed queue made when its read-back fails; the retry gets that same queue', async () => {
    const request = { logicalId: 'Unread', type, properties: {}, idempotencyToken: 'sqs-unread' };
    await failNext(sandbox, 'sqs', 'GetQueueAttributes');
    const made = await madeError(queues.create(request, context));
    // No creation identity: GetQueueAttributes is what gives it.
    expect(made.made).toEqual({ physicalId: expect.stringContaining('/Shop-Unread-') });
    expect(await queues.read({ ...request, physicalId: made.made.physicalId }, context)).toBeDefined();
    const retried = await queues.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
  });

  it('passes the read-back failure of a named queue through: CreateQueue may have returned one it found', async () => {
    await failNext(sandbox, 'sqs', 'GetQueueAttributes');
    const error = await queues
      .create({ logicalId: 'Named', type, properties: { QueueName: 'named-unread' } }, context)
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ResourceMadeError);
    expect(error).toMatchObject({ message: 'injected GetQueueAttributes failure' });
  });

  it('reports create-only and uncovered properties', () => {
    expect(queues.canUpdateInPlace(type, ['QueueName'])).toBe(false);
    expect(queues.canUpdateInPlace(type, ['FifoQueue'])).toBe(false);
    expect(queues.uncoveredProperties(type, { VisibilityTimeout: 1, Unknown: 2 })).toEqual(['Unknown']);
  });

  describe('Ref and GetAtt, row by row', () => {
    it('Ref is the queue URL (the physical id), Arn / QueueName / QueueUrl as CloudFormation', async () => {
      const created = await queues.create(
        { logicalId: 'Refs', type, properties: { QueueName: 'refs' } },
        context,
      );
      const url = `${sandbox.url}/${ACCOUNT}/refs`;
      expect(created.physicalId).toBe(url);
      expect(created.ref).toBeUndefined();
      expect(created.attributes.Arn).toBe(`arn:aws:sqs:us-east-1:${ACCOUNT}:refs`);
      expect(created.attributes.QueueName).toBe('refs');
      expect(created.attributes.QueueUrl).toBe(url);
    });

    it('QueuePolicy: Ref and Id are the generated policy id', async () => {
      const queue = await queues.create({ logicalId: 'Q', type, properties: {} }, context);
      const created = await policies.create(
        {
          logicalId: 'Policy',
          type: 'AWS::SQS::QueuePolicy',
          properties: { Queues: [queue.physicalId], PolicyDocument: { Statement: [] } },
        },
        context,
      );
      expect(created.physicalId).toMatch(/^Shop-Policy-[A-Z0-9]{12}$/);
      expect(created.attributes).toEqual({ Id: created.physicalId });
    });
  });
});

describe('AWS::SQS::QueuePolicy provider', () => {
  it('writes the policy on every queue, moves it on update, and removes it on delete', async () => {
    const a = await queues.create({ logicalId: 'A', type, properties: {} }, context);
    const b = await queues.create({ logicalId: 'B', type, properties: {} }, context);
    const document = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: '*', Action: 'sqs:SendMessage', Resource: '*' }],
    };
    const properties = { PolicyDocument: document, Queues: [a.physicalId, b.physicalId] };
    const policyType = 'AWS::SQS::QueuePolicy';
    const created = await policies.create({ logicalId: 'P', type: policyType, properties }, context);
    expect(JSON.parse((await attributesOf(b.physicalId)).Policy!)).toEqual(document);
    const request = { logicalId: 'P', type: policyType, physicalId: created.physicalId, properties };
    expect((await policies.read(request, context))!.properties).toEqual(properties);

    const moved = { PolicyDocument: document, Queues: [b.physicalId] };
    expect(policies.canUpdateInPlace(policyType, ['Queues'])).toBe(true);
    await policies.update({ ...request, properties: moved, previousProperties: properties }, context);
    expect((await attributesOf(a.physicalId)).Policy).toBeUndefined();
    expect((await attributesOf(b.physicalId)).Policy).toBeDefined();

    await policies.delete({ ...request, properties: moved }, context);
    expect((await attributesOf(b.physicalId)).Policy).toBeUndefined();
    expect(await policies.read({ ...request, properties: moved }, context)).toBeUndefined();
  });
});

describe('through the engine', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await engineWith(registerSqs, 'sqs-provider-state');
  });

  const template = (name: string, visibility: number) => ({
    Resources: {
      Queue: { Type: type, Properties: { QueueName: name, VisibilityTimeout: visibility } },
      Policy: {
        Type: 'AWS::SQS::QueuePolicy',
        Properties: { Queues: [{ Ref: 'Queue' }], PolicyDocument: { Version: '2012-10-17', Statement: [] } },
      },
    },
    Outputs: { Arn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } }, Url: { Value: { Ref: 'Queue' } } },
  });
  const stack = (body: Record<string, unknown>) => ({
    stateName: 'SqsStack',
    stackName: 'SqsStack',
    region: 'us-east-1',
    accountId: ACCOUNT,
    template: body,
  });

  it('replaces a queue on a QueueName change: new queue created, policy rewritten, old deleted', async () => {
    const first = await engine.deploy(stack(template('before', 30)), { concurrency: 2 });
    expect(first.outputs.Arn!.value).toBe(`arn:aws:sqs:us-east-1:${ACCOUNT}:before`);
    expect(first.outputs.Url!.value).toBe(`${sandbox.url}/${ACCOUNT}/before`);

    await engine.deploy(stack(template('before', 90)), { concurrency: 2 });
    expect((await attributesOf(`${sandbox.url}/${ACCOUNT}/before`)).VisibilityTimeout).toBe('90');

    const replaced = await engine.deploy(stack(template('after', 90)), { concurrency: 2 });
    expect(replaced.outputs.Arn!.value).toBe(`arn:aws:sqs:us-east-1:${ACCOUNT}:after`);
    expect((await attributesOf(`${sandbox.url}/${ACCOUNT}/after`)).Policy).toBeDefined();
    const inventory = (await (await fetch(`${sandbox.url}/_sandbox/inventory`)).json()) as Record<
      string,
      unknown
    >;
    const names = JSON.stringify(inventory);
    expect(names).toContain(`:after"`);
    expect(names).not.toContain(`:before"`);
  });
});
