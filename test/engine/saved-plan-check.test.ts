import { ListTopicsCommand, SNSClient } from '@aws-sdk/client-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlannedOperation } from '../../src/plan/index.js';
import { StackState } from '../../src/stack-state/index.js';
import { failureOfRun } from '../helpers/error-chain.js';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * `cdkd deploy --plan` as the engine sees it: under the stack's lock, the state ETag and the
 * plan made now are held against the saved ones before anything is written.
 */
const sandbox = useSandboxEngine('saved-plan-state');
const ref = { stackName: 'Saved', region: REGION };
const before = { Queue: { Type: 'AWS::SQS::Queue', Properties: {} } };
const after = { ...before, Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: 'saved' } } };

const stateEtag = async () => (await StackState.open(sandbox.backend.store, ref)).etag;
const topics = async () =>
  (await new SNSClient({ endpoint: sandbox.url, region: REGION }).send(new ListTopicsCommand({}))).Topics ??
  [];

describe('a saved plan checked under the lock', () => {
  let saved: { stateEtag: string | null; operations: PlannedOperation[] };

  beforeAll(async () => {
    await sandbox.deploy('Saved', before);
    const dry = await sandbox.deploy('Saved', after, { dryRun: true });
    saved = { stateEtag: dry.stateEtag ?? null, operations: dry.plan.operations };
  }, 60_000);

  it('a dry run reports the ETag of the state it planned from', async () => {
    expect(saved.stateEtag).toBe(await stateEtag());
    expect(saved.stateEtag).toEqual(expect.any(String));
  });

  it('refuses state that moved, writing nothing and releasing the lock', async () => {
    const etag = await stateEtag();
    const failure = await failureOfRun(
      sandbox.deploy('Saved', after, { savedPlan: { file: 'plan.json', ...saved, stateEtag: '"moved"' } }),
    );
    expect(failure.codes).toEqual(['SAVED_PLAN_STALE']);
    expect(failure.message).toContain('Saved: its state changed since the plan was made');
    expect(await stateEtag()).toBe(etag);
    expect(await topics()).toEqual([]);
    expect((await sandbox.backend.locks.find(ref)).kind).toBe('absent');
  });

  it('refuses a plan made now that differs from the saved one, writing nothing and releasing the lock', async () => {
    const etag = await stateEtag();
    const operations = saved.operations.filter((op) => op.logicalId !== 'Topic');
    const failure = await failureOfRun(
      sandbox.deploy('Saved', after, { savedPlan: { file: 'plan.json', ...saved, operations } }),
    );
    expect(failure.codes).toEqual(['SAVED_PLAN_STALE']);
    expect(failure.message).toContain(
      'Saved: the plan made now differs: Topic: not in the saved plan, now create',
    );
    expect(await stateEtag()).toBe(etag);
    expect(await topics()).toEqual([]);
    expect((await sandbox.backend.locks.find(ref)).kind).toBe('absent');
  });

  it('deploys a plan that still holds', async () => {
    const result = await sandbox.deploy('Saved', after, { savedPlan: { file: 'plan.json', ...saved } });
    expect(result.changed).toBe(true);
    expect(await topics()).toHaveLength(1);
  });

  it('a saved plan of no changes takes the lock, checks, and writes nothing', async () => {
    const dry = await sandbox.deploy('Saved', after, { dryRun: true });
    const etag = await stateEtag();
    const result = await sandbox.deploy('Saved', after, {
      savedPlan: { file: 'plan.json', stateEtag: dry.stateEtag ?? null, operations: dry.plan.operations },
    });
    expect(result.changed).toBe(false);
    expect(await stateEtag()).toBe(etag);
    const moved = await failureOfRun(
      sandbox.deploy('Saved', after, {
        savedPlan: { file: 'plan.json', stateEtag: '"moved"', operations: dry.plan.operations },
      }),
    );
    expect(moved.codes).toEqual(['SAVED_PLAN_STALE']);
  });
});
