import { describe, expect, it } from 'vitest';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { queueRecord, useRollbackHarness } from './rollback-harness.js';

// Spec 000, "Reversing a replacement": a replacement that deleted the old resource first is
// reversed in that order too. cdkd's own deploys replace create-first; such journals come
// from the delete-first paths the spec lists, so the journal here is written by hand.
const h = useRollbackHarness();

function replacedDeleteFirst(oldProperties: Record<string, unknown>): Promise<StackRequest> {
  return h.replacedQueue({
    current: queueRecord('queue-new', { QueueName: 'shared', DelaySeconds: 5 }),
    old: queueRecord('queue-old', oldProperties),
    verdict: { replacement: true, order: 'delete-first', oldDeleted: true },
  });
}

describe('a replacement the deploy made delete-first', () => {
  it('is reversed delete-first: the new copy goes, then the old one is re-created under the name', async () => {
    const request = await replacedDeleteFirst({ QueueName: 'shared' });
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(result.lines).toContainEqual(expect.stringContaining('reverse-replace (delete-first)'));
    const actions = h.cloud.calls.map((call) => `${call.action}:${call.physicalId ?? ''}`);
    expect(actions[0]).toBe('delete:queue-new');
    expect(h.cloud.calls[1]).toMatchObject({ action: 'create', properties: { QueueName: 'shared' } });
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.properties).toEqual({ QueueName: 'shared' });
    expect(h.cloud.live.has(state.resources.Queue!.physicalId)).toBe(true);
  });

  it('with a masked (NoEcho) old value fails with ROLLBACK_REDACTED_BASELINE before deleting anything', async () => {
    const request = await replacedDeleteFirst({ QueueName: 'shared', KmsMasterKeyId: '***' });
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.rollbackEvents('Queue')[0]?.message).toContain('ROLLBACK_REDACTED_BASELINE');
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.live.has('queue-new')).toBe(true);
    expect(await h.journal(request)).toBeDefined();
  });
});

describe('the create-first re-create that frees a name the new copy holds', () => {
  it('retries the re-create while the service still reports the freed name taken (a bounded name-release retry)', async () => {
    h.cloud.uniqueQueueNames = true;
    const request = await h.replacedQueue({
      current: queueRecord('queue-new', { QueueName: 'shared' }),
      old: queueRecord('queue-old', { QueueName: 'shared' }),
      verdict: { replacement: true, order: 'create-first', oldDeleted: true },
    });
    h.cloud.nameReleaseLag = 1;
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.nameReleaseLag).toBe(0);
    const restored = (await h.state(request))!.resources.Queue!;
    expect(h.cloud.live.get(restored.physicalId)?.properties).toEqual({ QueueName: 'shared' });
    expect(h.cloud.live.has('queue-new')).toBe(false);
  });
});
