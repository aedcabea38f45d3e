import { describe, expect, it } from 'vitest';
import { orphanResources } from '../../src/engine/scrub/orphan-resources.js';
import { FAIL_FAST_SCHEDULE, RETRY_SCHEDULE } from '../../src/state/lock-schedule.js';
import { NEXT_CREATE_QUEUE_FAILS, REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

// Spec 003: cdkd orphan fails fast on a held lock; cdkd state orphan retries it as a deploy does.
const h = useSandboxEngine('orphan-engine-state');
const ref = (stackName: string) => ({ stackName, region: REGION });
const queue = { Type: 'AWS::SQS::Queue' };

describe('orphanResources and the lock', () => {
  it('fails fast on a held lock with the fail-fast schedule, writing nothing', async () => {
    await h.deploy('FastLock', { Q: queue });
    const held = await h.backend.locks.acquire(ref('FastLock'), {
      operation: 'deploy',
      schedule: FAIL_FAST_SCHEDULE,
    });
    try {
      await expect(
        orphanResources(h.backend, { ref: ref('FastLock'), logicalIds: ['Q'], force: false }),
      ).rejects.toMatchObject({ code: 'LOCK_HELD' });
    } finally {
      await held.release();
    }
    expect((await h.backend.store.read(ref('FastLock')))!.document.resources.Q).toBeDefined();
  });

  it('with the retry schedule, waits out a lock its holder releases', async () => {
    await h.deploy('RetryLock', { Q: queue });
    const held = await h.backend.locks.acquire(ref('RetryLock'), {
      operation: 'deploy',
      schedule: FAIL_FAST_SCHEDULE,
    });
    const orphaning = orphanResources(h.backend, {
      ref: ref('RetryLock'),
      logicalIds: ['Q'],
      force: false,
      schedule: RETRY_SCHEDULE,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await held.release();
    expect((await orphaning).orphaned.map((resource) => resource.logicalId)).toEqual(['Q']);
    expect((await h.backend.store.read(ref('RetryLock')))!.document.resources).toEqual({});
  });

  it('refuses an id the rollback journal still acts on', async () => {
    await h.deploy('Journaled', { Q: queue });
    // Q's update completes, then R's create fails: the journal of the --no-rollback run holds Q.
    await h.addFault(NEXT_CREATE_QUEUE_FAILS);
    const updated = { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 5 } };
    await expect(
      h.deploy('Journaled', { Q: updated, R: { ...queue, DependsOn: 'Q' } }, { rollback: false }),
    ).rejects.toThrow();
    await expect(
      orphanResources(h.backend, { ref: ref('Journaled'), logicalIds: ['Q'], force: true }),
    ).rejects.toMatchObject({ code: 'ORPHAN_JOURNALED' });
  });
});
