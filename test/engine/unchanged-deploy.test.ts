import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { emptyJournal } from '../../src/state/journal-store.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo } from '../helpers/recording-io-host.js';
import { StackState } from '../../src/stack-state/index.js';
import type { StateDocument } from '../../src/state/documents/state-document.js';

// A redeploy with nothing to change skips the lock only when nothing else waits: a rollback
// journal of the stack or of any nested stack below it sends it down the locked path.
useSandbox();
let backend: StateBackend;

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'unchanged-test' }));
  backend = await openStateBackend(clients, 'unchanged-test', 'cdkd');
});

function parentWithChild(name: string): StackRequest {
  return {
    stateName: name,
    stackName: name,
    region: 'us-east-1',
    accountId: '000000000000',
    template: {
      Resources: { Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'child.json' } } },
    },
    nested: new Map([
      ['Child', { template: { Resources: { Queue: { Type: 'AWS::SQS::Queue' } } }, nested: new Map() }],
    ]),
  };
}

async function redeploy(request: StackRequest, cloud: FakeCloud) {
  const engine = await createEngine({
    backend,
    clients: new AwsClients(),
    registry: cloud,
    io: eventsTo(() => {}),
    command: 'deploy',
    regions: ['us-east-1'],
  });
  const acquire = vi.spyOn(backend.locks, 'acquire');
  try {
    const result = await engine.deploy(request, { concurrency: 4 });
    return { result, locked: acquire.mock.calls.length > 0 };
  } finally {
    acquire.mockRestore();
  }
}

describe('a redeploy with nothing to change', () => {
  it('of a stack with a nested stack takes no lock and makes no call', async () => {
    const cloud = new FakeCloud();
    const request = parentWithChild('UnchangedParent');
    await redeploy(request, cloud);
    const calls = cloud.calls.length;
    const { result, locked } = await redeploy(request, cloud);
    expect(result.changed).toBe(false);
    expect(locked).toBe(false);
    expect(cloud.calls.length).toBe(calls);
  });

  it("takes the lock and settles a journal its nested stack's failed run left", async () => {
    const cloud = new FakeCloud();
    const request = parentWithChild('UnchangedParentJournal');
    await redeploy(request, cloud);
    const child = { stackName: 'UnchangedParentJournal/Child', region: 'us-east-1' };
    await backend.journals.writer(child)(emptyJournal(child), undefined);
    const { result, locked } = await redeploy(request, cloud);
    expect(result.changed).toBe(false);
    expect(locked).toBe(true);
    expect(await backend.journals.read(child)).toBeUndefined();
  });
});

describe('a redeploy whose resources are unchanged but whose stack record is not', () => {
  const queueStack = (
    name: string,
    extra: Partial<StackRequest> = {},
    template: object = {},
  ): StackRequest => ({
    stateName: name,
    stackName: name,
    region: 'us-east-1',
    accountId: '000000000000',
    template: { Resources: { Queue: { Type: 'AWS::SQS::Queue' } }, ...template },
    ...extra,
  });

  // One row per field a run records besides the resources (stack-record.ts): each must send
  // the redeploy down the locked path, where the new value is written.
  it.each([
    ['its tags', { tags: { team: 'b' } }, {}, (doc: StateDocument) => doc.tags.team === 'b'],
    [
      'its termination protection',
      { terminationProtection: true },
      {},
      (doc: StateDocument) => doc.terminationProtection === true,
    ],
    [
      'an output',
      {},
      { Outputs: { Name: { Value: 'fixed' } } },
      (doc: StateDocument) => doc.outputs.Name?.value === 'fixed',
    ],
    [
      'its template only (metadata)',
      {},
      { Metadata: { note: 'x' } },
      (doc: StateDocument) => 'Metadata' in (doc.template ?? {}),
    ],
  ])('writes %s', async (what, extra, template, recorded) => {
    const cloud = new FakeCloud();
    const name = `UnchangedRecord${what.replace(/\W/g, '')}`;
    await redeploy(queueStack(name, { tags: { team: 'a' } }), cloud);
    expect((await redeploy(queueStack(name, { tags: { team: 'a' } }), cloud)).locked).toBe(false);
    const { result, locked } = await redeploy(
      queueStack(name, { tags: { team: 'a' }, ...extra }, template),
      cloud,
    );
    expect(result.stackName).toBe(name);
    expect(locked).toBe(true);
    const state = await StackState.open(backend.store, { stackName: name, region: 'us-east-1' });
    expect(recorded(state.document)).toBe(true);
  });
});
