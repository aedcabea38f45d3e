import { describe, expect, it } from 'vitest';
import { FAIL_FAST_SCHEDULE } from '../../src/state/lock-schedule.js';
import { REGION, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';

// Spec 003: state refresh-observed, state destroy and drift --accept / --revert fail fast on a held lock;
// drift alone only reads and takes no lock.
const h = useSandboxEngine('refresh-engine-state');

describe('state commands and a held lock', () => {
  it.each([
    [
      'refresh-observed',
      (engine: Awaited<ReturnType<typeof h.engine>>) =>
        engine.refreshObserved(stackIdentity('Held'), { concurrency: 2 }),
    ],
    [
      'state destroy',
      (engine: Awaited<ReturnType<typeof h.engine>>) =>
        engine.destroy(stackIdentity('Held'), { concurrency: 2 }),
    ],
    [
      'drift --accept',
      (engine: Awaited<ReturnType<typeof h.engine>>) =>
        engine.drift(stackIdentity('Held'), { mode: 'accept', concurrency: 2 }),
    ],
    [
      'drift --revert',
      (engine: Awaited<ReturnType<typeof h.engine>>) =>
        engine.drift(stackIdentity('Held'), { mode: 'revert', concurrency: 2 }),
    ],
  ])('%s fails fast, changing nothing', async (_name, run) => {
    await h.deploy('Held', { Q: { Type: 'AWS::SQS::Queue' } });
    const before = await h.backend.store.read({ stackName: 'Held', region: REGION });
    const held = await h.backend.locks.acquire(
      { stackName: 'Held', region: REGION },
      { operation: 'deploy', schedule: FAIL_FAST_SCHEDULE },
    );
    try {
      await expect(run(await h.engine())).rejects.toMatchObject({ code: 'LOCK_HELD' });
    } finally {
      await held.release();
    }
    expect((await h.backend.store.read({ stackName: 'Held', region: REGION }))?.etag).toBe(before?.etag);
  });

  it('drift alone reads while the lock is held', async () => {
    await h.deploy('ReadOnly', { Q: { Type: 'AWS::SQS::Queue' } });
    const held = await h.backend.locks.acquire(
      { stackName: 'ReadOnly', region: REGION },
      { operation: 'deploy', schedule: FAIL_FAST_SCHEDULE },
    );
    try {
      expect(
        await (await h.engine()).drift(stackIdentity('ReadOnly'), { mode: 'detect', concurrency: 2 }),
      ).toEqual({ found: true, drifted: [] });
    } finally {
      await held.release();
    }
  });
});
