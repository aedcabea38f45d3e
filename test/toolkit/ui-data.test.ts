import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import {
  emptyStateDocument,
  type ResourceRecord,
  type StateDocument,
} from '../../src/state/documents/state-document.js';
import { EventLog } from '../../src/state/event-log.js';
import { stackStateKeys } from '../../src/state/keys.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { UiData } from '../../src/toolkit/ui/ui-data.js';
import { useSandbox } from '../helpers/sandbox.js';

useSandbox();
const BUCKET = 'ui-data-test';
let backend: StateBackend;

const record = (dependencies: string[] = []): ResourceRecord => ({
  type: 'AWS::SQS::Queue',
  physicalId: 'q',
  properties: {},
  attributes: {},
  provisionedBy: 'sdk',
  dependencies,
  deletionPolicy: 'Retain',
});

async function saveState(
  stackName: string,
  region: string,
  resources: Record<string, ResourceRecord>,
  extra: Partial<StateDocument> = {},
) {
  const document = { ...emptyStateDocument(stackName, region), resources, ...extra };
  await backend.store.save({ stackName, region }, document, undefined);
}

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
  backend = await openStateBackend(clients, BUCKET, 'cdkd');
  await saveState(
    'Parent',
    'us-east-1',
    { A: record(), B: record(['A', 'NotInState']) },
    { outputs: { Url: { value: 'q', exportName: 'ParentQueue' }, Plain: { value: 1 } } },
  );
  await saveState('Reader', 'us-east-1', {}, { imports: ['ParentQueue'] });
  await saveState('Parent/Child', 'us-east-1', { C: record() });
  await saveState('Other', 'eu-west-1', {});
  await backend.locks.acquire({ stackName: 'Parent', region: 'us-east-1' }, { operation: 'deploy' });
  const log = new EventLog(backend.objects, 'cdkd', { stackName: 'Parent', region: 'us-east-1' }, 'run-1');
  log.record({
    status: 'CREATE_COMPLETE',
    logicalId: 'A',
    action: 'create',
    startedAt: new Date().toISOString(),
  });
  log.record({ status: 'UPDATE_FAILED', reason: 'boom' });
  await log.flush();
  const child = new EventLog(
    backend.objects,
    'cdkd',
    { stackName: 'Parent/Child', region: 'us-east-1' },
    'run-2',
  );
  child.record({ status: 'CREATE_COMPLETE', logicalId: 'C', action: 'create' });
  child.record({ status: 'UPDATE_COMPLETE', logicalId: 'C', action: 'update' });
  child.record({ status: 'UPDATE_FAILED', logicalId: 'C', action: 'update', reason: 'boom' });
  await child.flush();
  await backend.store.saveDrift(
    { stackName: 'Parent', region: 'us-east-1' },
    {
      version: 1,
      checkedAt: '2026-01-02T03:04:05.000Z',
      mode: 'detect',
      drifted: ['A', 'B'],
      missing: ['B'],
    },
  );
  const segment = (status: string) => ({
    runId: `run-${status}`,
    startedAt: new Date().toISOString(),
    cdkdVersion: '0.1.0',
    previous: {},
    status,
  });
  const journal = {
    version: 1,
    stackName: 'Other',
    region: 'eu-west-1',
    segments: [segment('failed'), segment('succeeded')],
  };
  await backend.objects.put(stackStateKeys('cdkd', 'Other', 'eu-west-1').journal, JSON.stringify(journal));
});

describe('UiData', () => {
  it("lists the current region's stacks, nested ones after their parent, with status, lock and count", async () => {
    const stacks = await new UiData(backend, ['us-east-1']).stacks();
    expect(stacks.map((stack) => [stack.stackName, stack.parent])).toEqual([
      ['Parent', undefined],
      ['Parent/Child', 'Parent'],
      ['Reader', undefined],
    ]);
    expect(stacks[0]).toMatchObject({
      resourceCount: 2,
      lastRunStatus: 'UPDATE_FAILED',
      lock: { owner: expect.stringContaining(`:${process.pid}`), operation: 'deploy' },
      pendingJournal: 0,
    });
    expect(stacks[1]!.lock).toBeUndefined();
    expect(stacks[1]!.lastRunStatus).toBeUndefined();
  });

  it("gives the last drift check's summary of a stack that had one, none of one never checked", async () => {
    const [parent, child] = await new UiData(backend, ['us-east-1']).stacks();
    expect(parent!.drift).toEqual({
      checkedAt: '2026-01-02T03:04:05.000Z',
      mode: 'detect',
      drifted: ['A', 'B'],
      missing: ['B'],
    });
    expect(child!.drift).toBeUndefined();
  });

  it('refuses an unreadable drift summary with an error naming its key', async () => {
    const ref = { stackName: 'Reader', region: 'us-east-1' };
    await backend.objects.put(stackStateKeys('cdkd', 'Reader', 'us-east-1').drift, '{"version":1}');
    await expect(backend.store.readDrift(ref)).rejects.toThrow(/Reader\/us-east-1\/drift\.json/);
    await backend.objects.delete(stackStateKeys('cdkd', 'Reader', 'us-east-1').drift);
  });

  it("gives each resource's last successful create or update from the events", async () => {
    const data = new UiData(backend, ['us-east-1']);
    const child = await data.stack({ stackName: 'Parent/Child', region: 'us-east-1' });
    expect(child!.resources[0]!.lastChange).toMatchObject({ status: 'UPDATE_COMPLETE' });
    const events = await data.events({ stackName: 'Parent/Child', region: 'us-east-1' });
    expect(child!.resources[0]!.lastChange!.at).toBe(events.events[1]!.timestamp);
  });

  it("with every region, counts a journal's unsettled segments", async () => {
    const other = (await new UiData(backend, 'all').stacks()).find((stack) => stack.stackName === 'Other');
    expect(other).toMatchObject({ region: 'eu-west-1', pendingJournal: 1 });
  });

  it("gives a stack's resources with the dependencies inside the stack, its exports with their importers, undefined for one not in state", async () => {
    const data = new UiData(backend, ['us-east-1']);
    const parent = await data.stack({ stackName: 'Parent', region: 'us-east-1' });
    expect(parent!.resources).toEqual([
      {
        logicalId: 'A',
        type: 'AWS::SQS::Queue',
        physicalId: 'q',
        route: 'sdk',
        deletionPolicy: 'Retain',
        dependencies: [],
        lastChange: { at: expect.any(String), status: 'CREATE_COMPLETE' },
      },
      {
        logicalId: 'B',
        type: 'AWS::SQS::Queue',
        physicalId: 'q',
        route: 'sdk',
        deletionPolicy: 'Retain',
        dependencies: ['A'],
      },
    ]);
    expect(parent!.outputs).toEqual({
      Url: { value: 'q', exportName: 'ParentQueue', importedBy: ['Reader'] },
      Plain: { value: 1 },
    });
    expect(await data.stack({ stackName: 'Missing', region: 'us-east-1' })).toBeUndefined();
  });

  it("gives a stack's events with its recorded dependencies", async () => {
    const history = await new UiData(backend, ['us-east-1']).events({
      stackName: 'Parent',
      region: 'us-east-1',
    });
    expect(history.events.map((event) => event.status)).toEqual(['CREATE_COMPLETE', 'UPDATE_FAILED']);
    expect(history.dependencies).toEqual({ A: [], B: ['A', 'NotInState'] });
  });
});
