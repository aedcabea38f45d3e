import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { DeployEvent } from '../../src/engine/events.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import type { JournalDocument } from '../../src/state/documents/journal-document.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo, plansAnswered, yesToPlans } from '../helpers/recording-io-host.js';
import type { IoHost } from '../../src/messages/index.js';

// A destroy killed after sending a delete leaves its in-flight entry; the next command reads
// exactly that record from the cloud (spec 003, "How cdkd prevents orphans").
useSandbox();
let backend: StateBackend;
let cloud: FakeCloud;
let events: DeployEvent[];
let counter = 0;

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'stale-records-test' }));
  backend = await openStateBackend(clients, 'stale-records-test', 'cdkd');
});

beforeEach(() => {
  cloud = new FakeCloud();
  events = [];
});

const engine = (ask: IoHost['ask'] = yesToPlans): Promise<Engine> =>
  createEngine({
    backend,
    clients: new AwsClients(),
    registry: cloud,
    io: eventsTo((event) => events.push(event), ask),
    command: 'deploy',
    regions: ['us-east-1'],
  });

const template = {
  Resources: { Queue: { Type: 'AWS::SQS::Queue' }, Topic: { Type: 'AWS::SNS::Topic' } },
};

/** A deployed stack, then a destroy killed once Queue's delete was sent (and completed in the cloud). */
async function killedMidDestroy(): Promise<{ request: StackRequest; queueId: string }> {
  const name = `Stale${++counter}`;
  const request = { stateName: name, stackName: name, region: 'us-east-1', accountId: '0', template };
  await (await engine()).deploy(request, { concurrency: 2 });
  const ref = { stackName: name, region: 'us-east-1' };
  const queueId = (await backend.store.read(ref))!.document.resources.Queue!.physicalId;
  const journal: JournalDocument = {
    version: 1,
    stackName: name,
    region: 'us-east-1',
    segments: [
      {
        runId: 'killed-destroy',
        startedAt: new Date().toISOString(),
        cdkdVersion: 'test',
        flags: {},
        previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
        command: 'destroy',
        status: 'running',
        operations: [
          {
            seq: 0,
            logicalId: 'Queue',
            action: 'delete',
            type: 'AWS::SQS::Queue',
            status: 'in-flight',
            physicalId: queueId,
          },
        ],
        importMarks: [],
      },
    ],
  };
  await backend.journals.writer(ref)(journal, undefined);
  cloud.live.delete(queueId);
  cloud.calls.length = 0;
  return { request, queueId };
}

const journalOf = async (request: StackRequest) =>
  (await backend.journals.read({ stackName: request.stateName, region: 'us-east-1' }))?.document;
const stateOf = async (request: StackRequest) =>
  (await backend.store.read({ stackName: request.stateName, region: 'us-east-1' }))?.document;

describe('records an interrupted delete may have made stale', () => {
  it('a dry run plans the create of what is gone and writes nothing', async () => {
    const { request, queueId } = await killedMidDestroy();
    const result = await (await engine()).deploy(request, { concurrency: 2, dryRun: true });
    expect(result.plan.operations.map((op) => `${op.kind}:${op.logicalId}`).sort()).toEqual([
      'create:Queue',
      'no-op:Topic',
    ]);
    expect((await stateOf(request))!.resources.Queue!.physicalId).toBe(queueId);
    expect((await journalOf(request))!.segments).toHaveLength(1);
  });

  it('a deploy re-creates what is gone and touches nothing else', async () => {
    const { request, queueId } = await killedMidDestroy();
    await (await engine()).deploy(request, { concurrency: 2 });
    expect(cloud.calls.map((call) => `${call.action}:${call.logicalId}`)).toEqual(['create:Queue']);
    const state = (await stateOf(request))!;
    expect(state.resources.Queue!.physicalId).not.toBe(queueId);
    expect(cloud.live.has(state.resources.Queue!.physicalId)).toBe(true);
    expect(await journalOf(request)).toBeUndefined();
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'warning',
        message: expect.stringContaining('Queue (AWS::SQS::Queue)'),
      }),
    );
  });

  it('a read that fails keeps the record and the destroy segment, with a warning', async () => {
    const { request, queueId } = await killedMidDestroy();
    cloud.failOn.add('read:Queue');
    const result = await (
      await engine(plansAnswered(async () => false))
    ).rollback({
      stack: {
        stateName: request.stateName,
        stackName: request.stackName,
        region: 'us-east-1',
        accountId: '0',
      },
      revertFailed: false,
      orphan: new Set(),
      force: false,
    });
    expect(result.confirmed).toBe(false);
    expect((await stateOf(request))!.resources.Queue!.physicalId).toBe(queueId);
    expect((await journalOf(request))!.segments.map((segment) => segment.command)).toEqual(['destroy']);
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'warning', message: expect.stringContaining('reading it failed') }),
    );
  });

  it('a rollback whose read settles it drops the record and the destroy segment', async () => {
    const { request } = await killedMidDestroy();
    const result = await (
      await engine()
    ).rollback({
      stack: {
        stateName: request.stateName,
        stackName: request.stackName,
        region: 'us-east-1',
        accountId: '0',
      },
      revertFailed: false,
      orphan: new Set(),
      force: false,
    });
    expect(result.found).toBe(false);
    expect(Object.keys((await stateOf(request))!.resources)).toEqual(['Topic']);
    expect(await journalOf(request)).toBeUndefined();
    expect(cloud.calls).toEqual([]);
  });
});
