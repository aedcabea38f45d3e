import { describe, expect, it } from 'vitest';
import { FAIL_FAST_SCHEDULE } from '../../src/state/lock-schedule.js';
import { REGION, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';

// Spec 003: state refresh-observed and state destroy fail fast on a held lock.
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
});
