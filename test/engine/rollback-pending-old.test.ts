import { describe, expect, it } from 'vitest';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { queueRecord, useRollbackHarness } from './rollback-harness.js';

// Spec 000, "Reversing a replacement", with spec 003's "never by guessing": the old copy
// state lists as a pending delete is re-adopted only when it is still there. A deploy
// stopped between a cleanup delete and its state save leaves a gone copy listed.
const h = useRollbackHarness();
const QUEUE = 'AWS::SQS::Queue';

function replacedWithPendingOld(oldAlive: boolean): Promise<StackRequest> {
  const old = queueRecord('queue-old', { QueueName: 'first' });
  if (oldAlive) h.cloud.live.set('queue-old', { type: QUEUE, properties: old.properties });
  return h.replacedQueue({
    current: queueRecord('queue-new', { QueueName: 'second' }),
    old,
    verdict: { replacement: true, order: 'create-first' },
    pendingOld: true,
  });
}

describe('a replacement whose old copy state lists as a pending delete', () => {
  it('is re-adopted while it is there: the new copy goes', async () => {
    const request = await replacedWithPendingOld(true);
    expect((await h.rollback(request)).exitCode).toBe(0);
    expect(h.cloud.liveIds()).toEqual(['queue-old']);
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.physicalId).toBe('queue-old');
    expect(state.pendingDeletes).toEqual([]);
  });

  it('already gone, is re-created instead: state never points at a resource that is not there', async () => {
    const request = await replacedWithPendingOld(false);
    expect((await h.rollback(request)).exitCode).toBe(0);
    const state = (await h.state(request))!;
    const restored = state.resources.Queue!;
    expect(restored.physicalId).not.toBe('queue-old');
    expect(h.cloud.liveIds()).toEqual([restored.physicalId]);
    expect(h.cloud.live.get(restored.physicalId)?.properties).toEqual({ QueueName: 'first' });
    expect(state.pendingDeletes).toEqual([]);
  });

  it('that cannot be read stops the step with nothing changed and the journal kept', async () => {
    const request = await replacedWithPendingOld(true);
    h.cloud.failOn.add('read:Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.liveIds().sort()).toEqual(['queue-new', 'queue-old']);
    expect(h.rollbackEvents('Queue')[0]?.message).toContain('cannot read the old resource queue-old');
    expect(await h.journal(request)).toBeDefined();
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe('queue-new');
  });
});
