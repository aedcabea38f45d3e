import { GetAliasCommand, GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { defaultRegistry, providerRetry } from '../../src/toolkit/session/provider-wiring.js';
import { eventsTo } from '../helpers/recording-io-host.js';
import { useSandbox } from '../helpers/sandbox.js';
import { iamRole, REGION, stackIdentity } from '../helpers/sandbox-engine.js';
import { functionProperties, setLatency } from '../providers/lambda-helpers.js';

/**
 * Issue 34: a function is waited for only where AWS refuses a call on a Pending function, and
 * once, all together, at the end of the deploy; functions on one new role do not multiply
 * their CreateFunction calls through IAM propagation.
 */
const sandbox = useSandbox();
const clients = new AwsClients();
const BUCKET = 'lambda-waits-state';

beforeAll(async () => {
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterEach(async () => {
  await setLatency(sandbox.current.url, {});
});

async function engine(): Promise<Engine> {
  return createEngine({
    backend: await openStateBackend(clients, BUCKET, 'cdkd'),
    clients,
    registry: defaultRegistry(),
    io: eventsTo(() => undefined),
    command: 'deploy',
    retry: providerRetry(() => undefined),
    regions: [REGION],
  });
}

async function deploy(stackName: string, resources: Record<string, unknown>): Promise<void> {
  await (
    await engine()
  ).deploy({ ...stackIdentity(stackName), template: { Resources: resources } }, { concurrency: 32 });
}

const resetCalls = () => fetch(`${sandbox.current.url}/_sandbox/calls`, { method: 'DELETE' });

/** How many calls of `service:operation` the sandbox answered since the last reset. */
async function callCount(key: string): Promise<number> {
  const { calls } = (await (await fetch(`${sandbox.current.url}/_sandbox/calls`)).json()) as {
    calls: Record<string, { count: number }>;
  };
  return calls[key]?.count ?? 0;
}

/** The Lambda operations among the sandbox's last 200 calls, oldest first. */
async function lambdaOperations(): Promise<string[]> {
  const { calls } = (await (await fetch(`${sandbox.current.url}/_sandbox/calls/recent`)).json()) as {
    calls: Array<{ service: string; operation: string }>;
  };
  return calls
    .filter((call) => call.service === 'lambda')
    .map((call) => call.operation)
    .reverse();
}

const count = (operations: string[], name: string) => operations.filter((op) => op === name).length;

/**
 * `total` functions named `prefix0`...; `chained`, each depends on the one before (DependsOn),
 * so a create that waited for Active would hold up the next one.
 */
function functions(
  total: number,
  options: { prefix?: string; chained?: boolean; properties?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const prefix = options.prefix ?? 'Fn';
  return Object.fromEntries(
    Array.from({ length: total }, (_, index) => [
      `${prefix}${index}`,
      {
        Type: 'AWS::Lambda::Function',
        Properties: functionProperties(options.properties),
        ...(options.chained && index > 0 ? { DependsOn: [`${prefix}${index - 1}`] } : {}),
      },
    ]),
  );
}

async function stateOf(name: string): Promise<string | undefined> {
  const lambda = await clients.client(LambdaClient, REGION);
  return (await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name }))).State;
}

async function functionNames(stackName: string): Promise<string[]> {
  const state = await (
    await openStateBackend(clients, BUCKET, 'cdkd')
  ).store.read({
    stackName,
    region: REGION,
  });
  return Object.values(state!.document.resources)
    .filter((record) => record.type === 'AWS::Lambda::Function')
    .map((record) => record.physicalId);
}

describe('Lambda waits', () => {
  it('creates 10 functions (5 chained) with 10 CreateFunction calls, polls only at the end, and ends with all Active', async () => {
    await setLatency(sandbox.current.url, { 'AWS::Lambda::Function': { create: 1000 } });
    await resetCalls();
    await deploy('TenFunctions', { ...functions(5), ...functions(5, { prefix: 'Chain', chained: true }) });
    expect(await callCount('lambda:CreateFunction')).toBe(10);
    const operations = await lambdaOperations();
    expect(count(operations, 'CreateFunction')).toBe(10);
    const lastCreate = operations.lastIndexOf('CreateFunction');
    const firstPoll = operations.indexOf('GetFunctionConfiguration');
    expect(firstPoll).toBeGreaterThan(lastCreate);
    const names = await functionNames('TenFunctions');
    expect(names).toHaveLength(10);
    for (const name of names) expect(await stateOf(name)).toBe('Active');
  });

  it('a version and an alias on a new function wait for it, then publish', async () => {
    await setLatency(sandbox.current.url, { 'AWS::Lambda::Function': { create: 800 } });
    await deploy('Versioned', {
      Fn: { Type: 'AWS::Lambda::Function', Properties: functionProperties() },
      Ver: { Type: 'AWS::Lambda::Version', Properties: { FunctionName: { Ref: 'Fn' } } },
      Live: {
        Type: 'AWS::Lambda::Alias',
        Properties: {
          FunctionName: { Ref: 'Fn' },
          Name: 'live',
          FunctionVersion: { 'Fn::GetAtt': ['Ver', 'Version'] },
        },
      },
    });
    const [name] = await functionNames('Versioned');
    const lambda = await clients.client(LambdaClient, REGION);
    const alias = await lambda.send(new GetAliasCommand({ FunctionName: name, Name: 'live' }));
    expect(alias.FunctionVersion).toBe('1');
    expect(await stateOf(name!)).toBe('Active');
  });

  it('20 functions on one new role: one probe at a time through the propagation window, not 20', async () => {
    await setLatency(sandbox.current.url, { 'AWS::IAM::Role': { create: 1000 } });
    await resetCalls();
    await deploy('OneRole', {
      Exec: iamRole(),
      ...functions(20, { properties: { Role: { 'Fn::GetAtt': ['Exec', 'Arn'] } } }),
    });
    const creates = await callCount('lambda:CreateFunction');
    // 20 that succeed, plus one refused probe per retry step inside the 1 s window (3 or 4).
    expect(creates).toBeGreaterThanOrEqual(21);
    expect(creates).toBeLessThanOrEqual(30);
    expect(await functionNames('OneRole')).toHaveLength(20);
  });
});
