import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo } from '../helpers/recording-io-host.js';

// Resources finishing together share a state write: a deploy's writes grow with the
// DAG's depth, not its width.
useSandbox();
let backend: StateBackend;

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'state-writes-test' }));
  backend = await openStateBackend(clients, 'state-writes-test', 'cdkd');
});

/** Deploys `resources` with every create answering at once; returns how many times state.json was written. */
async function stateWritesFor(name: string, resources: Record<string, unknown>): Promise<number> {
  const cloud = new FakeCloud();
  const engine = await createEngine({
    backend,
    clients: new AwsClients(),
    registry: cloud,
    io: eventsTo(() => {}),
    command: 'deploy',
    regions: ['us-east-1'],
  });
  const request: StackRequest = {
    stateName: name,
    stackName: name,
    region: 'us-east-1',
    accountId: '000000000000',
    template: { Resources: resources },
  };
  const save = vi.spyOn(backend.store, 'saveText');
  try {
    await engine.deploy(request, { concurrency: 64 });
    const writes = save.mock.calls.filter(([ref]) => ref.stackName === name).length;
    const stored = await backend.store.read({ stackName: name, region: 'us-east-1' });
    expect(Object.keys(stored!.document.resources).sort()).toEqual(Object.keys(resources).sort());
    return writes;
  } finally {
    save.mockRestore();
  }
}

const queue = (tags: unknown[] = []) => ({ Type: 'AWS::SQS::Queue', Properties: { Tags: tags } });

describe('state writes per deploy', () => {
  it('40 independent resources finishing together share one write, between the attempted template recorded first and the stack record', async () => {
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`Q${i}`, queue()]));
    expect(await stateWritesFor('Wide40', wide)).toBe(3);
  });

  it('a chain of 10 needs a write per link: each reader waits for what it reads to be saved', async () => {
    const chain = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [
        `L${i}`,
        queue(i === 0 ? [] : [{ Key: 'previous', Value: { 'Fn::GetAtt': [`L${i - 1}`, 'Arn'] } }]),
      ]),
    );
    expect(await stateWritesFor('Chain10', chain)).toBeGreaterThanOrEqual(10);
  });
});
