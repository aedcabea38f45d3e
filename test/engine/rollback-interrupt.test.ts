import { describe, expect, it } from 'vitest';
import { useRollbackHarness } from './rollback-harness.js';

// Spec 003, "Signals": cdkd rollback's first signal lets the steps in flight finish,
// starts no new one, and the journal keeps what was not undone for a re-run.
const h = useRollbackHarness();

describe('cdkd rollback interrupted by a signal', () => {
  it('finishes the step in flight, starts no other, keeps the rest in the journal; a re-run completes it', async () => {
    const { request } = await h.readerFailedWithoutRollback();
    h.cloud.failOn.clear();
    const { A: a, B: b } = (await h.state(request))!.resources;

    // B reads A, so B's delete runs first; the signal arrives while it is in flight.
    const controller = new AbortController();
    const remove = h.cloud.provider.delete.bind(h.cloud.provider);
    h.cloud.provider.delete = async (deleted, context) => {
      controller.abort();
      return remove(deleted, context);
    };
    const interrupted = await h.rollback(request, { signal: controller.signal });
    expect(interrupted.exitCode).toBe(1);
    expect(h.cloud.live.has(b!.physicalId)).toBe(false);
    expect(h.cloud.live.has(a!.physicalId)).toBe(true);
    const state = (await h.state(request))!;
    expect(Object.keys(state.resources)).toEqual(['A']);
    const [segment] = (await h.journal(request))!.segments;
    expect(segment!.status).toBe('interrupted');
    expect(segment!.operations.map((op) => op.logicalId).sort()).toEqual(['A', 'C']);

    h.cloud.provider.delete = remove;
    expect((await h.rollback(request)).exitCode).toBe(0);
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
  });
});
