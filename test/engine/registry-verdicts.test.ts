import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { DeployEvent } from '../../src/engine/events.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import type { PlannedOperation } from '../../src/plan/index.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo } from '../helpers/recording-io-host.js';

const sandbox = useSandbox();
let backend: StateBackend;
let events: DeployEvent[];
let stackCounter = 0;
/** One cloud for the file: its ids stay unique across engines. */
const cloud = new FakeCloud();

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'registry-verdicts' }));
  backend = await openStateBackend(clients, 'registry-verdicts', 'cdkd');
});

beforeEach(async () => {
  events = [];
  await admin('DELETE', 'faults');
});

/** One engine is one run: the registry's answers and its warning are per engine. */
function engine(): Promise<Engine> {
  return createEngine({
    backend,
    clients: new AwsClients(),
    registry: cloud,
    io: eventsTo((event) => events.push(event)),
    command: 'deploy',
    regions: ['us-east-1'],
  });
}

function stack(resources: Record<string, unknown>, name: string): StackRequest {
  return {
    stateName: name,
    stackName: name,
    region: 'us-east-1',
    accountId: '000000000000',
    template: { Resources: resources },
  };
}

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** DescribeType calls since the counters were last reset. */
async function describeTypeCalls(): Promise<number> {
  const { calls } = (await admin('GET', 'calls')) as { calls: Record<string, { count: number }> };
  return calls['cloudformation:DescribeType']?.count ?? 0;
}

const queue = (properties: Record<string, unknown>) => ({ Type: 'AWS::SQS::Queue', Properties: properties });
const widget = (size: number) => ({ Type: 'Acme::Private::Widget', Properties: { Size: size } });

function operation(plan: { operations: PlannedOperation[] }, logicalId: string): PlannedOperation {
  return plan.operations.find((op) => op.logicalId === logicalId)!;
}

const warnings = () => events.flatMap((event) => (event.kind === 'warning' ? [event.message] : []));

/** Deploys `before`, then returns the redeploy of `after` with the DescribeType calls it made. */
async function redeploy(name: string, before: Record<string, unknown>, after: Record<string, unknown>) {
  await (await engine()).deploy(stack(before, name), { concurrency: 4 });
  await admin('DELETE', 'calls');
  events = [];
  const result = await (await engine()).deploy(stack(after, name), { concurrency: 4 });
  return { result, calls: await describeTypeCalls() };
}

describe('replacement verdicts from cloudformation:DescribeType (spec 002)', () => {
  it('a redeploy with nothing changed asks the registry nothing', async () => {
    const resources = { Q: queue({ QueueName: 'same', VisibilityTimeout: 1 }) };
    const { result, calls } = await redeploy(`Registry${++stackCounter}`, resources, resources);
    expect(result.changed).toBe(false);
    expect(calls).toBe(0);
  });

  it('changed resources ask once per type, and a create-only change replaces on the registry verdict', async () => {
    const { result, calls } = await redeploy(
      `Registry${++stackCounter}`,
      {
        A: queue({ QueueName: 'a1' }),
        B: queue({ VisibilityTimeout: 1 }),
        C: queue({ VisibilityTimeout: 1 }),
      },
      {
        A: queue({ QueueName: 'a2' }),
        B: queue({ VisibilityTimeout: 2 }),
        C: queue({ VisibilityTimeout: 3 }),
      },
    );
    expect(calls).toBe(1);
    expect(operation(result.plan, 'A')).toMatchObject({
      kind: 'replace',
      reason: 'changed: QueueName; QueueName requires replacement (registry schema)',
    });
    expect(operation(result.plan, 'B').kind).toBe('update');
    expect(operation(result.plan, 'C').kind).toBe('update');
    expect(warnings()).toEqual([]);
  });

  it("a change only cdkd's own rules decide asks nothing", async () => {
    const table = (indexes: unknown[]) => ({
      Type: 'AWS::DynamoDB::Table',
      // The old table is kept, so the stateful guard lets the replacement through.
      UpdateReplacePolicy: 'Retain',
      Properties: { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], LocalSecondaryIndexes: indexes },
    });
    const { result, calls } = await redeploy(
      `Registry${++stackCounter}`,
      { T: table([]) },
      { T: table([{ IndexName: 'i' }]) },
    );
    expect(calls).toBe(0);
    expect(operation(result.plan, 'T')).toMatchObject({
      kind: 'replace',
      reason: 'changed: LocalSecondaryIndexes; LocalSecondaryIndexes requires replacement (cdkd rule)',
    });
  });

  it('a reader re-planned after its target is recreated asks about its own type then', async () => {
    const name = `Registry${++stackCounter}`;
    const topic = { Type: 'AWS::SNS::Topic', Properties: { TopicName: { Ref: 'A' } } };
    const { result, calls } = await redeploy(
      name,
      { A: queue({ QueueName: 'r1' }), B: topic },
      { A: queue({ QueueName: 'r2' }), B: topic },
    );
    // Planned, B reads A's old id and is unchanged; once A has a new id its create-only TopicName moves.
    expect(operation(result.plan, 'B').kind).toBe('update');
    expect(calls).toBe(2);
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'resource', logicalId: 'B', action: 'replace', status: 'succeeded' }),
    );
  });

  it('a type the registry does not know (TypeNotFoundException) and cdkd bundles none of is updated in place', async () => {
    const { result, calls } = await redeploy(`Registry${++stackCounter}`, { W: widget(1) }, { W: widget(2) });
    expect(calls).toBe(1);
    expect(operation(result.plan, 'W')).toMatchObject({
      kind: 'update',
      notes: [
        'neither the CloudFormation registry nor the bundled schema index knows Acme::Private::Widget: changes are planned in place',
      ],
    });
    expect(warnings()).toEqual([]);
  });

  it('without permission: one warning per run, no further calls, and the bundled index decides', async () => {
    const first = `Registry${++stackCounter}`;
    const second = `Registry${++stackCounter}`;
    const run = await engine();
    await run.deploy(stack({ A: queue({ QueueName: 'd1' }), W: widget(1) }, first), { concurrency: 4 });
    await run.deploy(stack({ B: queue({ QueueName: 'e1' }) }, second), { concurrency: 4 });
    await admin('POST', 'faults', {
      service: 'cloudformation',
      operation: 'DescribeType',
      errorCode: 'AccessDenied',
      httpStatus: 403,
      message:
        'User: arn:aws:iam::000000000000:user/deployer is not authorized to perform: cloudformation:DescribeType',
      every: true,
    });
    await admin('DELETE', 'calls');
    events = [];

    const denied = await engine();
    const one = await denied.deploy(stack({ A: queue({ QueueName: 'd2' }), W: widget(2) }, first), {
      concurrency: 4,
    });
    const callsAfterFirst = await describeTypeCalls();
    const two = await denied.deploy(stack({ B: queue({ QueueName: 'e2' }) }, second), { concurrency: 4 });

    // Both types of the first stack were asked at once; the second stack asked nothing.
    expect(callsAfterFirst).toBe(2);
    expect(await describeTypeCalls()).toBe(2);
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^cloudformation:DescribeType is not allowed \(AccessDenied\): replacement verdicts come from cdkd's bundled schema index \(.+\), and a change to a type it does not know is planned in place\. Allow cloudformation:DescribeType/,
      ),
    ]);
    expect(operation(one.plan, 'A')).toMatchObject({
      kind: 'replace',
      reason: 'changed: QueueName; QueueName requires replacement (schema)',
    });
    expect(operation(one.plan, 'W')).toMatchObject({
      kind: 'update',
      notes: ['no bundled schema for Acme::Private::Widget: changes are planned in place'],
    });
    expect(operation(two.plan, 'B')).toMatchObject({
      kind: 'replace',
      reason: expect.stringContaining('(schema)'),
    });
  });

  it('a failed call (not a denial) warns for its type and falls back to the bundled index', async () => {
    const name = `Registry${++stackCounter}`;
    await (await engine()).deploy(stack({ A: queue({ QueueName: 'f1' }) }, name), { concurrency: 4 });
    await admin('POST', 'faults', {
      service: 'cloudformation',
      operation: 'DescribeType',
      errorCode: 'CFNRegistryException',
      httpStatus: 400,
      message: 'registry unavailable',
    });
    events = [];
    const result = await (
      await engine()
    ).deploy(stack({ A: queue({ QueueName: 'f2' }) }, name), { concurrency: 4 });
    expect(warnings()).toEqual([
      'cloudformation:DescribeType for AWS::SQS::Queue failed (CFNRegistryException: registry unavailable): its replacement verdicts come from the bundled schema index.',
    ]);
    expect(operation(result.plan, 'A')).toMatchObject({
      kind: 'replace',
      reason: expect.stringContaining('(schema)'),
    });
  });
});
