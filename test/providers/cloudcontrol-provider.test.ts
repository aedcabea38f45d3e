import { setTimeout as realSleep } from 'node:timers/promises';
import {
  ListResourcesCommand,
  type CloudControlClient,
  type ProgressEvent,
} from '@aws-sdk/client-cloudcontrol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { classifyAwsError } from '../../src/aws/error-class.js';
import type { Clock } from '../../src/providers/clock.js';
import { pollDelayMs } from '../../src/providers/cloudcontrol/polling.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { retryClassOf } from '../../src/providers/retry-class.js';
import { withRetry } from '../../src/providers/retry.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, failure } from '../sandbox/helpers.js';

let sandbox: Sandbox;
let client: CloudControlClient;
let context: ProviderContext;

/** Virtual time: `now` advances by what was slept; the real wait is `scale` of it. */
function scaledClock(scale: number): Clock & { slept: number[] } {
  const slept: number[] = [];
  let now = 0;
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
      await realSleep(ms * scale);
    },
  };
}

function provider(clock: Clock, onStatus?: (event: ProgressEvent) => void): CloudControlProvider {
  return new CloudControlProvider({ clock, client: async () => client, ...(onStatus ? { onStatus } : {}) });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  client = cloudControlClient(sandbox);
  context = {
    clients: new AwsClients({ region: 'us-east-1' }),
    accountId: '123456789012',
    region: 'us-east-1',
    stackName: 'Test',
  };
});
afterAll(async () => {
  client.destroy();
  await sandbox.stop();
});
afterEach(async () => {
  await admin(sandbox, 'DELETE', 'faults');
  await admin(sandbox, 'PUT', 'latency', {});
});

describe('CloudControlProvider against the sandbox', () => {
  it('creates, reads, updates in place and deletes', async () => {
    const cc = provider(scaledClock(0.01));
    const type = 'AWS::SQS::Queue';
    const created = await cc.create({ logicalId: 'Queue', type, properties: { QueueName: 'jobs' } }, context);
    // The QueueUrl the sandbox's SQS API answers: on the sandbox, as an SDK client follows it.
    expect(created.physicalId).toBe(`${sandbox.url}/123456789012/jobs`);
    expect(created.attributes).toMatchObject({
      Arn: 'arn:aws:sqs:us-east-1:123456789012:jobs',
      QueueName: 'jobs',
    });
    expect(created.creationIdentity).toMatchObject({ Arn: 'arn:aws:sqs:us-east-1:123456789012:jobs' });
    expect(created.ref).toBeUndefined();

    const request = {
      logicalId: 'Queue',
      type,
      physicalId: created.physicalId,
      properties: { QueueName: 'jobs' },
    };
    expect(await cc.read(request, context)).toMatchObject({
      properties: { QueueName: 'jobs' },
      attributes: created.attributes,
    });

    const updated = await cc.update(
      {
        ...request,
        previousProperties: { QueueName: 'jobs' },
        properties: { QueueName: 'jobs', DelaySeconds: 5 },
      },
      context,
    );
    expect(updated.physicalId).toBe(created.physicalId);
    // A queue reads back with every SQS attribute, defaults included, as on AWS.
    expect((await cc.read(request, context))?.properties).toMatchObject({
      QueueName: 'jobs',
      DelaySeconds: 5,
      VisibilityTimeout: 30,
    });
    await cc.update(
      {
        ...request,
        previousProperties: { QueueName: 'jobs', DelaySeconds: 5 },
        properties: { QueueName: 'jobs' },
      },
      context,
    );
    expect((await cc.read(request, context))?.properties).toMatchObject({
      QueueName: 'jobs',
      DelaySeconds: 0,
    });

    await cc.delete(request, context);
    expect(await cc.read(request, context)).toBeUndefined();
    await cc.delete(request, context);
  });

  it("updates a write-only property (a function's Code), which Cloud Control's model never holds", async () => {
    const cc = provider(scaledClock(0.01));
    const { LambdaClient, GetFunctionCommand } = await import('@aws-sdk/client-lambda');
    const lambda = new LambdaClient({
      endpoint: sandbox.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const codeSha = async () =>
      (await lambda.send(new GetFunctionCommand({ FunctionName: 'code-swap' }))).Configuration?.CodeSha256;
    const type = 'AWS::Lambda::Function';
    const properties = {
      FunctionName: 'code-swap',
      Role: 'arn:aws:iam::123456789012:role/exec',
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Code: { ZipFile: 'exports.handler = async () => 1;' },
    };
    const created = await cc.create({ logicalId: 'Fn', type, properties }, context);
    const request = { logicalId: 'Fn', type, physicalId: created.physicalId, properties };
    const before = await codeSha();
    const next = { ...properties, Code: { ZipFile: 'exports.handler = async () => 2;' } };
    await cc.update({ ...request, previousProperties: properties, properties: next }, context);
    const after = await codeSha();
    lambda.destroy();
    expect(before).toBeDefined();
    expect(after).not.toBe(before);
    await cc.delete(request, context);
  });

  it('reads nested attributes from nested model paths, and Ref where it differs from the identifier', async () => {
    const cc = provider(scaledClock(0.01));
    const cluster = await cc.create(
      {
        logicalId: 'Db',
        type: 'AWS::RDS::DBCluster',
        properties: { DBClusterIdentifier: 'db1', Engine: 'aurora-postgresql' },
      },
      context,
    );
    expect(cluster.physicalId).toBe('db1');
    expect(cluster.attributes['Endpoint.Address']).toEqual(expect.stringContaining('db1.'));
    expect(cluster.attributes['Endpoint.Port']).toBe('443');
    const resource = await cc.create(
      {
        logicalId: 'Res',
        type: 'AWS::ApiGateway::Resource',
        properties: { RestApiId: 'api1', ParentId: 'root', PathPart: 'items' },
      },
      context,
    );
    const [restApiId, resourceId] = resource.physicalId.split('|');
    expect(restApiId).toBe('api1');
    expect(resource.ref).toBe(resourceId);
  });

  it('polls on the 1 s ×1.5 schedule while the latency model holds the request', async () => {
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::SNS::Topic': { create: 300 } } });
    const clock = scaledClock(0.05);
    const statuses: string[] = [];
    const cc = provider(clock, (event) => statuses.push(event.OperationStatus!));
    const created = await cc.create(
      { logicalId: 'Topic', type: 'AWS::SNS::Topic', properties: { TopicName: 'slow' } },
      context,
    );
    expect(created.attributes.TopicArn).toBe('arn:aws:sns:us-east-1:123456789012:slow');
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(statuses.slice(0, -1).every((status) => status === 'IN_PROGRESS')).toBe(true);
    expect(statuses[statuses.length - 1]).toBe('SUCCESS');
    expect(clock.slept).toEqual(statuses.map((_, index) => pollDelayMs(index)));
    expect(clock.slept.slice(0, 3)).toEqual([1000, 1500, 2250]);
  });

  it('fails with the handler’s error code, which classifies as the SDK’s would', async () => {
    const cc = provider(scaledClock(0));
    await cc.create(
      { logicalId: 'A', type: 'AWS::Logs::LogGroup', properties: { LogGroupName: 'taken' } },
      context,
    );
    const duplicate = await failure(
      cc.create(
        { logicalId: 'B', type: 'AWS::Logs::LogGroup', properties: { LogGroupName: 'taken' } },
        context,
      ),
    );
    expect(duplicate.name).toBe('AlreadyExists');
    expect(classifyAwsError(duplicate.error)).toBe('already-exists');
  });

  it('turns a fault on CreateResource into an error the retry classes know', async () => {
    await admin(sandbox, 'POST', 'faults', {
      service: 'cloudcontrolapi',
      operation: 'CreateResource',
      errorCode: 'ThrottlingException',
      httpStatus: 400,
      message: 'Rate exceeded',
    });
    const clock = scaledClock(0);
    const cc = provider(clock);
    const request = { logicalId: 'T', type: 'AWS::SNS::Topic', properties: { TopicName: 'throttled' } };
    const thrown = await failure(cc.create(request, context));
    expect(thrown.name).toBe('ThrottlingException');
    expect(retryClassOf(thrown.error)).toBe('throttling');

    await admin(sandbox, 'POST', 'faults', {
      service: 'cloudcontrolapi',
      operation: 'CreateResource',
      errorCode: 'ThrottlingException',
      httpStatus: 400,
    });
    const retried = await withRetry(() => cc.create(request, context), { label: 'T', clock });
    expect(retried.physicalId).toBe('arn:aws:sns:us-east-1:123456789012:throttled');
    expect(clock.slept[0]).toBe(1000);
  });

  it('re-polls the same request token when GetResourceRequestStatus fails', async () => {
    await admin(sandbox, 'DELETE', 'calls');
    await admin(sandbox, 'POST', 'faults', {
      service: 'cloudcontrolapi',
      operation: 'GetResourceRequestStatus',
      errorCode: 'ServiceUnavailableException',
      httpStatus: 503,
      count: 3,
    });
    const cc = provider(scaledClock(0));
    const created = await cc.create(
      { logicalId: 'G', type: 'AWS::Logs::LogGroup', properties: { LogGroupName: 'repolled' } },
      context,
    );
    expect(created.physicalId).toBe('repolled');
    const calls = await admin(sandbox, 'GET', 'calls');
    expect(calls.json.calls['cloudcontrolapi:GetResourceRequestStatus'].count).toBe(4);
    expect(calls.json.calls['cloudcontrolapi:CreateResource'].count).toBe(1);
  });

  it('gives up re-polling after two minutes of outage', async () => {
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::Logs::LogGroup': { create: 60_000 } } });
    await admin(sandbox, 'POST', 'faults', {
      service: 'cloudcontrolapi',
      operation: 'GetResourceRequestStatus',
      errorCode: 'ServiceUnavailableException',
      httpStatus: 503,
      every: true,
    });
    const clock = scaledClock(0);
    const cc = provider(clock);
    const thrown = await failure(
      cc.create(
        { logicalId: 'O', type: 'AWS::Logs::LogGroup', properties: { LogGroupName: 'outage' } },
        context,
      ),
    );
    expect(thrown.error).toMatchObject({ code: 'CC_STATUS_UNREACHABLE' });
    const waited = clock.slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(120_000);
    expect(waited).toBeLessThan(140_000);
  });

  it('reuses the ClientToken across attempts of one create, and a new one after a FAILED request', async () => {
    const cc = provider(scaledClock(0));
    const request = {
      logicalId: 'Q',
      type: 'AWS::SQS::Queue',
      properties: {},
      idempotencyToken: 'create-Q-1',
    };
    const first = await cc.create(request, context);
    const replay = await cc.create(request, context);
    expect(replay.physicalId).toBe(first.physicalId);
    const queues = await client.send(new ListResourcesCommand({ TypeName: 'AWS::SQS::Queue' }));
    expect(queues.ResourceDescriptions?.filter((d) => d.Identifier === first.physicalId)).toHaveLength(1);

    const named = {
      logicalId: 'N',
      type: 'AWS::Logs::LogGroup',
      properties: { LogGroupName: 'later' },
      idempotencyToken: 'create-N-1',
    };
    await cc.create({ ...named, logicalId: 'Other', idempotencyToken: 'create-Other-1' }, context);
    expect((await failure(cc.create(named, context))).name).toBe('AlreadyExists');
    await cc.delete({ logicalId: 'Other', type: named.type, physicalId: 'later', properties: {} }, context);
    expect((await cc.create(named, context)).physicalId).toBe('later');
  });

  it('knows which changes Cloud Control can apply in place', () => {
    const cc = provider(scaledClock(0));
    expect(cc.canUpdateInPlace('AWS::SQS::Queue', ['VisibilityTimeout'])).toBe(true);
    expect(cc.canUpdateInPlace('AWS::SQS::Queue', ['VisibilityTimeout', 'QueueName'])).toBe(false);
    expect(cc.handles('AWS::SQS::Queue')).toBe(true);
    expect(cc.handles('AWS::Serverless::Function')).toBe(false);
  });
});
