import {
  CreateBucketCommand,
  DeleteBucketPolicyCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { admin, failure, stsClient, withSandbox } from './helpers.js';

describe('sandbox admin API', () => {
  let sandbox: Sandbox;
  let s3: S3Client;
  let close: () => Promise<void>;
  const Bucket = 'admin-tests';

  beforeAll(async () => {
    ({ sandbox, s3, close } = await withSandbox());
    await s3.send(new CreateBucketCommand({ Bucket }));
  });
  afterEach(async () => {
    await admin(sandbox, 'DELETE', 'faults');
    await admin(sandbox, 'PUT', 'latency', {});
  });
  afterAll(() => close());

  it('reports health and the services served', async () => {
    const { status, json } = await admin(sandbox, 'GET', 'health');
    expect(status).toBe(200);
    expect(json.status).toBe('ok');
    expect(json.services).toEqual(expect.arrayContaining(['s3', 'sts', 'ssm', 'cloudcontrolapi', 'iam']));
  });

  it('delivers an injected SlowDown 503 on PutObject to the SDK as that error', async () => {
    const added = await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      errorCode: 'SlowDown',
      httpStatus: 503,
      message: 'Please reduce your request rate.',
    });
    expect(added.status).toBe(201);
    expect(added.json.id).toEqual(expect.any(String));

    const error = await failure(s3.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x' })));
    expect(error).toMatchObject({ name: 'SlowDown', status: 503 });
    expect(error.error.message).toBe('Please reduce your request rate.');
    // A fault without nth/every fires once.
    await expect(s3.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x' }))).resolves.toBeDefined();
  });

  it('fires an nth-call fault only on the Nth matching call and counts what it saw', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'GetObject',
      errorCode: 'InternalError',
      httpStatus: 500,
      nth: 3,
    });
    await s3.send(new PutObjectCommand({ Bucket, Key: 'nth', Body: 'x' }));
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      outcomes.push(
        await s3.send(new GetObjectCommand({ Bucket, Key: 'nth' })).then(
          () => 'ok',
          (error: Error) => error.name,
        ),
      );
    }
    expect(outcomes).toEqual(['ok', 'ok', 'InternalError', 'ok', 'ok']);
    const { json } = await admin(sandbox, 'GET', 'faults');
    expect(json.faults).toMatchObject([{ operation: 'GetObject', seen: 5, fired: 1 }]);
  });

  it('fails every matching call with every: true, up to count, and renders a HEAD fault bodiless', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'HeadBucket',
      errorCode: 'ServiceUnavailable',
      httpStatus: 503,
      every: true,
      count: 2,
    });
    const first = await failure(s3.send(new HeadBucketCommand({ Bucket })));
    const second = await failure(s3.send(new HeadBucketCommand({ Bucket })));
    expect([first.status, second.status]).toEqual([503, 503]);
    await expect(s3.send(new HeadBucketCommand({ Bucket }))).resolves.toBeDefined();
  });

  it('renders a fault on a query-protocol service in the query error shape', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 'sts',
      operation: 'GetCallerIdentity',
      errorCode: 'Throttling',
      httpStatus: 400,
      message: 'Rate exceeded',
    });
    const sts = stsClient(sandbox);
    const error = await failure(sts.send(new GetCallerIdentityCommand({})));
    sts.destroy();
    expect(error).toMatchObject({ name: 'Throttling', status: 400 });
    expect(error.error.message).toBe('Rate exceeded');
  });

  it('with afterApply, lets the call take effect and then answers the fault instead', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      errorCode: 'InternalError',
      httpStatus: 500,
      afterApply: true,
    });
    const error = await failure(s3.send(new PutObjectCommand({ Bucket, Key: 'after', Body: 'made' })));
    expect(error).toMatchObject({ name: 'InternalError', status: 500 });
    const read = await s3.send(new GetObjectCommand({ Bucket, Key: 'after' }));
    expect(await read.Body!.transformToString()).toBe('made');
  });

  it('drops the connection, before the call or after it took effect', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      dropConnection: true,
      every: true,
      count: 2,
    });
    const notApplied = await s3.send(new PutObjectCommand({ Bucket, Key: 'dropped-before', Body: 'x' })).then(
      () => undefined,
      (error: Error & { code?: unknown }) => error,
    );
    expect(notApplied).toMatchObject({ code: 'ECONNRESET' });
    await admin(sandbox, 'DELETE', 'faults');
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      dropConnection: true,
      afterApply: true,
    });
    await expect(
      s3.send(new PutObjectCommand({ Bucket, Key: 'dropped-after', Body: 'y' })),
    ).rejects.toThrow();
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: 'dropped-before' }))).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
    const read = await s3.send(new GetObjectCommand({ Bucket, Key: 'dropped-after' }));
    expect(await read.Body!.transformToString()).toBe('y');
  });

  it('with pathContains, applies only to calls whose path holds the text (an S3 key)', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      pathContains: 'state.json',
      errorCode: 'InternalError',
      httpStatus: 500,
      every: true,
    });
    await expect(
      s3.send(new PutObjectCommand({ Bucket, Key: 'other.json', Body: 'x' })),
    ).resolves.toBeDefined();
    const error = await failure(s3.send(new PutObjectCommand({ Bucket, Key: 'a/state.json', Body: 'x' })));
    expect(error).toMatchObject({ name: 'InternalError', status: 500 });
    const { json } = await admin(sandbox, 'GET', 'faults');
    expect(json.faults).toMatchObject([{ pathContains: 'state.json', seen: 1, fired: 1 }]);
  });

  it('with afterApply and latencyMs only, holds the answer after the call took effect', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      afterApply: true,
      latencyMs: 1500,
    });
    let answered = false;
    const put = s3.send(new PutObjectCommand({ Bucket, Key: 'held', Body: 'applied' }));
    void put.then(() => (answered = true));
    let read: string | undefined;
    while (read === undefined && !answered) {
      read = await s3
        .send(new GetObjectCommand({ Bucket, Key: 'held' }))
        .then((response) => response.Body!.transformToString())
        .catch(() => undefined);
    }
    // Stored while its answer was still held.
    expect({ read, answered }).toEqual({ read: 'applied', answered: false });
    await put;
  });

  it('delays a call by a latency-only fault', async () => {
    await admin(sandbox, 'POST', 'faults', { service: 's3', operation: 'ListObjectsV2', latencyMs: 150 });
    const started = performance.now();
    await s3.send(new ListObjectsV2Command({ Bucket }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('counts the requests it is still answering (GET in-flight), not the admin call itself', async () => {
    expect((await admin(sandbox, 'GET', 'in-flight')).json).toEqual({ inFlight: 0 });
    await admin(sandbox, 'POST', 'faults', { service: 's3', operation: 'ListObjectsV2', latencyMs: 5_000 });
    const slow = s3.send(new ListObjectsV2Command({ Bucket }));
    await expect
      .poll(async () => (await admin(sandbox, 'GET', 'in-flight')).json.inFlight, { timeout: 60_000 })
      .toBe(1);
    await slow;
    expect((await admin(sandbox, 'GET', 'in-flight')).json).toEqual({ inFlight: 0 });
  });

  it('stores the latency model and applies its per-operation delays', async () => {
    const model = {
      types: { 'AWS::S3::Bucket': { create: 200, update: 100, delete: 100 } },
      operations: { 's3:ListObjectsV2': 120 },
    };
    const put = await admin(sandbox, 'PUT', 'latency', model);
    expect(put.status).toBe(200);
    expect((await admin(sandbox, 'GET', 'latency')).json).toEqual(model);
    const started = performance.now();
    await s3.send(new ListObjectsV2Command({ Bucket }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(120);
  });

  it('takes a named profile, scaled, and reports the settings it stands for', async () => {
    const put = await admin(sandbox, 'PUT', 'latency', { profile: 'aws', timeScale: 10 });
    expect(put.status).toBe(200);
    const settings = (await admin(sandbox, 'GET', 'latency')).json;
    expect(settings).toMatchObject({
      profile: 'aws',
      timeScale: 10,
      callMs: 3,
      cloudControl: { create: 300 },
      types: { 'AWS::EC2::NatGateway': { create: 12_000 } },
    });
    // What GET returned is settings PUT takes back as they are.
    expect((await admin(sandbox, 'PUT', 'latency', settings)).json).toEqual(settings);
    // Every call pays the profile's round trip.
    const started = performance.now();
    await s3.send(new ListObjectsV2Command({ Bucket }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(3);
    const unknown = await admin(sandbox, 'PUT', 'latency', { profile: 'azure' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toContain('profile');
    await admin(sandbox, 'PUT', 'latency', {});
  });

  it('rejects an invalid fault or latency model with a 400 that says why', async () => {
    const fault = await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      errorCode: 'X',
    });
    expect(fault.status).toBe(400);
    expect(fault.json.error.message).toContain('errorCode and httpStatus go together');
    const bare = await admin(sandbox, 'POST', 'faults', { service: 's3', operation: '*', afterApply: true });
    expect(bare.status).toBe(400);
    expect(bare.json.error.message).toContain('afterApply needs errorCode or dropConnection');
    const latency = await admin(sandbox, 'PUT', 'latency', { operations: { PutObject: 5 } });
    expect(latency.status).toBe(400);
  });

  it('counts calls by service:Operation, flags mutating ones, and resets', async () => {
    await admin(sandbox, 'DELETE', 'calls');
    await s3.send(new PutObjectCommand({ Bucket, Key: 'counted', Body: 'x' }));
    await s3.send(new GetObjectCommand({ Bucket, Key: 'counted' }));
    await s3.send(new GetObjectCommand({ Bucket, Key: 'counted' }));
    const { json } = await admin(sandbox, 'GET', 'calls');
    expect(json).toEqual({
      calls: { 's3:GetObject': { count: 2, mutating: false }, 's3:PutObject': { count: 1, mutating: true } },
      total: 3,
      mutating: 1,
      deliveries: [],
    });
    expect((await admin(sandbox, 'DELETE', 'calls')).json).toEqual({
      calls: {},
      total: 0,
      mutating: 0,
      deliveries: [],
    });
  });

  it('lists buckets in the inventory with their object counts', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'inventoried' }));
    await s3.send(new PutObjectCommand({ Bucket: 'inventoried', Key: 'one', Body: '1' }));
    await s3.send(new PutObjectCommand({ Bucket: 'inventoried', Key: 'two', Body: '2' }));
    const { json } = await admin(sandbox, 'GET', 'inventory');
    const buckets = json.s3['AWS::S3::Bucket'];
    expect(buckets.map((b: { id: string }) => b.id)).toEqual(expect.arrayContaining([Bucket, 'inventoried']));
    expect(buckets.find((b: { id: string }) => b.id === 'inventoried')).toMatchObject({
      region: 'us-east-1',
      objectCount: 2,
    });
    expect(json.sts).toEqual({});
  });

  it('lists a bucket policy in the inventory by its bucket, while the bucket holds one', async () => {
    const policy = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::ruled/*' },
      ],
    });
    await s3.send(new CreateBucketCommand({ Bucket: 'ruled' }));
    const policies = async () =>
      (
        (await admin(sandbox, 'GET', 'inventory')).json.s3['AWS::S3::BucketPolicy'] as Array<{ id: string }>
      ).map((entry) => entry.id);
    expect(await policies()).not.toContain('ruled');
    await s3.send(new PutBucketPolicyCommand({ Bucket: 'ruled', Policy: policy }));
    expect(await policies()).toContain('ruled');
    await s3.send(new DeleteBucketPolicyCommand({ Bucket: 'ruled' }));
    expect(await policies()).not.toContain('ruled');
  });

  it('lists recent calls newest first with their latency and the fault that met them', async () => {
    await admin(sandbox, 'DELETE', 'calls');
    await admin(sandbox, 'PUT', 'latency', { operations: { 's3:HeadBucket': 60 } });
    await s3.send(new HeadBucketCommand({ Bucket }));
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'GetObject',
      errorCode: 'InternalError',
      httpStatus: 500,
    });
    await failure(s3.send(new GetObjectCommand({ Bucket, Key: 'absent-or-not' })));
    const { status, json } = await admin(sandbox, 'GET', 'calls/recent');
    expect(status).toBe(200);
    expect(json.calls).toHaveLength(2);
    const [faulted, slow] = json.calls;
    expect(faulted).toMatchObject({
      service: 's3',
      operation: 'GetObject',
      status: 500,
      fault: 'InternalError',
    });
    expect(slow).toMatchObject({ service: 's3', operation: 'HeadBucket', status: 200 });
    expect(slow.fault).toBeUndefined();
    expect(slow.latencyMs).toBeGreaterThanOrEqual(60);
    expect(Date.parse(slow.at)).not.toBeNaN();
    await admin(sandbox, 'DELETE', 'calls');
    expect((await admin(sandbox, 'GET', 'calls/recent')).json.calls).toEqual([]);
  });

  it("lists a queue's messages without receiving them", async () => {
    const sqs = new SQSClient({
      endpoint: sandbox.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
      maxAttempts: 1,
    });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'peeked' }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'first' }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'second' }));
    await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 1 }));
    const peek = async () => (await admin(sandbox, 'GET', 'views/sqs/messages?queue=peeked')).json;
    const before = await peek();
    expect(before.messages.map((m: { body: string }) => m.body)).toEqual(['first', 'second']);
    expect(before.messages.map((m: { receiveCount: number }) => m.receiveCount)).toEqual([1, 0]);
    expect(await peek()).toEqual(before);
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    expect(Messages?.map((message) => message.Body)).toEqual(['second']);
    const attributes = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    expect(attributes.Attributes?.ApproximateNumberOfMessages).toBe('0');
    expect((await admin(sandbox, 'GET', 'views/sqs/messages?queue=no-such-queue')).status).toBe(404);
    expect((await admin(sandbox, 'GET', 'views/sqs/nothing')).status).toBe(404);
    sqs.destroy();
  });

  it('answers 404 for an unknown admin route', async () => {
    expect((await admin(sandbox, 'GET', 'nothing-here')).status).toBe(404);
  });
});
