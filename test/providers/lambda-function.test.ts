import { GetFunctionCommand, GetFunctionConfigurationCommand } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { LambdaFunctionProvider } from '../../src/providers/lambda/function.js';
import { TOKEN_TAG } from '../../src/providers/physical-names.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { withRetry, type RetryEvent } from '../../src/providers/retry.js';
import { useSandbox } from '../helpers/sandbox.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import {
  ACCOUNT,
  functionProperties,
  lambdaClientFor,
  lambdaContext,
  ROLE,
  scaledClock,
  setLatency,
} from './lambda-helpers.js';

const sandbox = useSandbox();

const resetCalls = () => fetch(`${sandbox.current.url}/_sandbox/calls`, { method: 'DELETE' });

/** Lambda calls since the last reset, by operation. */
async function lambdaCalls(): Promise<Record<string, number>> {
  const { calls } = (await (await fetch(`${sandbox.current.url}/_sandbox/calls`)).json()) as {
    calls: Record<string, { count: number }>;
  };
  return Object.fromEntries(
    Object.entries(calls)
      .filter(([key]) => key.startsWith('lambda:'))
      .map(([key, { count }]) => [key.slice('lambda:'.length), count]),
  );
}
let context: ProviderContext;
const type = 'AWS::Lambda::Function';

beforeAll(async () => {
  context = lambdaContext('FnStack');
  const s3 = await new AwsClients().s3();
  await s3.send(new CreateBucketCommand({ Bucket: 'assets' }));
  await s3.send(new PutObjectCommand({ Bucket: 'assets', Key: 'a.zip', Body: 'PK version a' }));
  await s3.send(new PutObjectCommand({ Bucket: 'assets', Key: 'b.zip', Body: 'PK version b, longer' }));
});
afterEach(async () => {
  await setLatency(sandbox.current.url, {});
  await clearFaults(sandbox.current);
});

describe('AWS::Lambda::Function provider', () => {
  it('creates with a generated name without waiting, settles Active, reads back, updates in place and deletes', async () => {
    await setLatency(sandbox.current.url, { [type]: { create: 150, update: 150 } });
    const clock = scaledClock(0.2);
    const provider = new LambdaFunctionProvider({ clock });
    const properties = functionProperties({
      Code: { S3Bucket: 'assets', S3Key: 'a.zip' },
      MemorySize: '256',
      Timeout: '30',
      Environment: { Variables: { STAGE: 'dev' } },
      Tags: [{ Key: 'team', Value: 'a' }],
    });
    const created = await provider.create({ logicalId: 'Handler', type, properties }, context);
    expect(created.physicalId).toMatch(/^FnStack-Handler-[A-Z0-9]{12}$/);
    // CreateFunction answers Pending and the create returns on it: nothing waited for Active.
    expect(clock.slept).toEqual([]);
    const client = await lambdaClientFor(context);
    const pending = await client.send(
      new GetFunctionConfigurationCommand({ FunctionName: created.physicalId }),
    );
    expect(pending.State).toBe('Pending');
    const arn = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:${created.physicalId}`;
    expect(created.attributes).toEqual({
      Arn: arn,
      SnapStartResponse: { ApplyOn: 'None', OptimizationStatus: 'Off' },
      'SnapStartResponse.ApplyOn': 'None',
      'SnapStartResponse.OptimizationStatus': 'Off',
    });
    expect(created.ref).toBeUndefined();
    expect(created.creationIdentity).toMatchObject({ Arn: arn });

    const request = { logicalId: 'Handler', type, physicalId: created.physicalId, properties };
    await provider.untilUsable(request, context);
    expect(clock.slept.length).toBeGreaterThan(0);
    const active = await client.send(
      new GetFunctionConfigurationCommand({ FunctionName: created.physicalId }),
    );
    expect(active.State).toBe('Active');
    const live = await provider.read(request, context);
    expect(live!.properties).toMatchObject({
      MemorySize: 256,
      Timeout: 30,
      Environment: { Variables: { STAGE: 'dev' } },
      Tags: [{ Key: 'team', Value: 'a' }],
    });

    const next = functionProperties({
      Code: { S3Bucket: 'assets', S3Key: 'b.zip' },
      MemorySize: 512,
      Description: 'second',
      Tags: [{ Key: 'owner', Value: 'b' }],
      ReservedConcurrentExecutions: '3',
    });
    expect(provider.canUpdateInPlace(type, ['Code', 'MemorySize', 'Environment', 'Tags'])).toBe(true);
    const updated = await provider.update(
      { ...request, properties: next, previousProperties: properties },
      context,
    );
    expect(updated.physicalId).toBe(created.physicalId);
    const after = await client.send(new GetFunctionCommand({ FunctionName: created.physicalId }));
    expect(after.Configuration).toMatchObject({
      MemorySize: 512,
      Timeout: 3,
      Description: 'second',
      CodeSize: 'PK version b, longer'.length,
      LastUpdateStatus: 'Successful',
    });
    expect(after.Configuration!.Environment).toBeUndefined();
    expect(after.Tags).toEqual({ owner: 'b' });
    expect(after.Concurrency).toEqual({ ReservedConcurrentExecutions: 3 });

    await provider.delete(request, context);
    expect(await provider.read(request, context)).toBeUndefined();
    await provider.delete(request, context);
  });

  it('sends inline ZipFile source as a zip package of index.js', async () => {
    const provider = new LambdaFunctionProvider({ clock: scaledClock(0) });
    const node = await provider.create(
      { logicalId: 'Inline', type, properties: functionProperties({ FunctionName: 'inline-node' }) },
      context,
    );
    const client = await lambdaClientFor(context);
    const config = await client.send(new GetFunctionConfigurationCommand({ FunctionName: node.physicalId }));
    // 30 + 8 (index.js) + source + 46 + 8 + 22
    expect(config.CodeSize).toBe(30 + 8 + 'exports.handler = async () => 1;'.length + 46 + 8 + 22);
  });

  it('a replayed create adopts the function its lost first attempt made', async () => {
    const provider = new LambdaFunctionProvider({ clock: scaledClock(0) });
    const request = {
      logicalId: 'Twice',
      type,
      properties: functionProperties({ FunctionName: 'twice' }),
      idempotencyToken: 'tok-1',
    };
    const first = await provider.create(request, context);
    const second = await provider.create(request, context);
    expect(second.physicalId).toBe(first.physicalId);
    const live = await provider.read({ ...request, physicalId: 'twice' }, context);
    expect(live!.properties.Tags).toBeUndefined();
    const client = await lambdaClientFor(context);
    expect((await client.send(new GetFunctionCommand({ FunctionName: 'twice' }))).Tags).toEqual({
      [TOKEN_TAG]: 'tok-1',
    });
    const other = await provider
      .create({ ...request, idempotencyToken: 'tok-2' }, context)
      .catch((error: Error) => error);
    expect((other as Error).name).toBe('ResourceConflictException');
  });

  it('creates with one CreateFunction and no poll, reserving concurrency on the Pending function', async () => {
    await setLatency(sandbox.current.url, { [type]: { create: 60_000 } });
    await resetCalls();
    const provider = new LambdaFunctionProvider({ clock: scaledClock(0) });
    const created = await provider.create(
      {
        logicalId: 'Reserved',
        type,
        properties: functionProperties({ FunctionName: 'reserved', ReservedConcurrentExecutions: 4 }),
      },
      context,
    );
    expect(await lambdaCalls()).toEqual({ CreateFunction: 1, PutFunctionConcurrency: 1 });
    expect(created.observed).toMatchObject({ ReservedConcurrentExecutions: 4 });
    const client = await lambdaClientFor(context);
    const live = await client.send(new GetFunctionCommand({ FunctionName: 'reserved' }));
    expect(live.Configuration!.State).toBe('Pending');
    expect(live.Concurrency).toEqual({ ReservedConcurrentExecutions: 4 });
    // The creation identity is the create's answer, the function's first revision.
    expect(created.creationIdentity).toEqual({
      Arn: live.Configuration!.FunctionArn,
      RevisionId: live.Configuration!.RevisionId,
      LastModified: live.Configuration!.LastModified,
    });
  });

  it('untilUsable fails with the reason when the function cannot be read', async () => {
    const provider = new LambdaFunctionProvider({ clock: scaledClock(0) });
    const request = { logicalId: 'Gone', type, physicalId: 'never-made', properties: {} };
    const error = await provider.untilUsable(request, context).catch((e: Error) => e);
    expect((error as Error).name).toBe('ResourceNotFoundException');
  });

  it('reports the function made, with its creation identity, when its concurrency call fails', async () => {
    const provider = new LambdaFunctionProvider({ clock: scaledClock(0) });
    const request = {
      logicalId: 'Capped',
      type,
      properties: functionProperties({ FunctionName: 'capped', ReservedConcurrentExecutions: 2 }),
      idempotencyToken: 'tok-capped',
    };
    await failNext(sandbox.current, 'lambda', 'PutFunctionConcurrency', {
      errorCode: 'InvalidParameterValueException',
    });
    const made = await madeError(provider.create(request, context), 'InvalidParameterValueException');
    expect(made.made.physicalId).toBe('capped');
    const live = await provider.read({ ...request, physicalId: 'capped' }, context);
    expect(made.made.creationIdentity).toMatchObject(live!.creationIdentity!);
    expect(made.made.creationIdentity).toEqual({
      Arn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:capped`,
      RevisionId: expect.any(String),
      LastModified: expect.any(String),
    });
  });

  it('derives a generated name from the idempotency token, so a replay meets its first attempt', async () => {
    const provider = new LambdaFunctionProvider({ clock: scaledClock(0) });
    const request = {
      logicalId: 'Gen',
      type,
      properties: functionProperties(),
      idempotencyToken: 'gen-token',
    };
    const first = await provider.create(request, context);
    const second = await provider.create(request, context);
    expect(second.physicalId).toBe(first.physicalId);
    expect(first.physicalId).toMatch(/^FnStack-Gen-[A-Z0-9]{12}$/);
  });

  it('gets through the IAM-propagation window with withRetry on the dense schedule', async () => {
    await setLatency(sandbox.current.url, { 'AWS::IAM::Role': { create: 400 } });
    const iam = await context.clients.client(IAMClient, 'us-east-1');
    const { Role } = await iam.send(
      new CreateRoleCommand({
        RoleName: 'fresh-exec',
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
          ],
        }),
      }),
    );
    const clock = scaledClock(0.05);
    const provider = new LambdaFunctionProvider({ clock });
    const retries: RetryEvent[] = [];
    const created = await withRetry(
      () =>
        provider.create(
          {
            logicalId: 'Fresh',
            type,
            properties: functionProperties({ FunctionName: 'fresh', Role: Role!.Arn }),
          },
          context,
        ),
      { label: 'Fresh', clock, onRetry: (event) => retries.push(event) },
    );
    expect(created.physicalId).toBe('fresh');
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((event) => event.retryClass === 'iam-propagation')).toBe(true);
    expect((retries[0]!.error as Error).message).toBe(
      'The role defined for the function cannot be assumed by Lambda.',
    );
  });

  it('a role IAM does not know is aged from its first sight', async () => {
    await setLatency(sandbox.current.url, { 'AWS::IAM::Role': { create: 60_000 } });
    const provider = new LambdaFunctionProvider({ clock: scaledClock(0) });
    const properties = functionProperties({ FunctionName: 'unknown-role', Role: `${ROLE}-elsewhere` });
    const error = await provider.create({ logicalId: 'X', type, properties }, context).catch((e: Error) => e);
    expect((error as Error).name).toBe('InvalidParameterValueException');
  });
});
