import { describe, expect, it } from 'vitest';
import { options, useRollbackHarness } from './rollback-harness.js';

// Spec 004, "What an update rollback puts back": the stack record's template,
// parameters and tags follow the generation the stack is in.
const h = useRollbackHarness();

const template = (visibility: number) => ({
  Parameters: { Env: { Type: 'String' } },
  Resources: {
    Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: visibility } },
    Late: { Type: 'AWS::SNS::Topic', DependsOn: 'Queue', Properties: { DisplayName: `late-${visibility}` } },
  },
});

async function deployedThenChanged() {
  const first = { ...h.stack(template(30), { Env: 'one' }), tags: { team: 'a' } };
  await (await h.engine()).deploy(first, options);
  h.cloud.failOn.add('update:Late');
  const second = { ...first, template: template(60), parameters: { Env: 'two' }, tags: { team: 'b' } };
  return { first, second };
}

describe('the stack record after a failed update', () => {
  it('UPDATE_ROLLBACK_COMPLETE: template, parameters and tags all restored', async () => {
    const { first, second } = await deployedThenChanged();
    await expect((await h.engine()).deploy(second, options)).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    const state = (await h.state(first))!;
    expect(state.template).toEqual(template(30));
    expect(state.parameters).toEqual({ Env: 'one' });
    expect(state.tags).toEqual({ team: 'a' });
  });

  it('a failed update under --no-rollback keeps the attempted template and parameters; cdkd rollback restores the earlier ones', async () => {
    const { first, second } = await deployedThenChanged();
    await expect((await h.engine()).deploy(second, { ...options, rollback: false })).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const kept = (await h.state(first))!;
    expect(kept.template).toEqual(template(60));
    expect(kept.parameters).toEqual({ Env: 'two' });
    expect(kept.tags).toEqual({ team: 'b' });

    h.cloud.failOn.clear();
    // The failed update stays in the journal for --revert-failed: exit 2 (spec 003).
    expect((await h.rollback(first)).exitCode).toBe(2);
    const restored = (await h.state(first))!;
    expect(restored.template).toEqual(template(30));
    expect(restored.parameters).toEqual({ Env: 'one' });
    expect(restored.tags).toEqual({ team: 'a' });
  });

  it('a new stack that failed under --no-rollback leaves no state once cdkd rollback undoes it', async () => {
    const request = h.stack(template(30), { Env: 'one' });
    h.cloud.failOn.add('create:Late');
    await expect((await h.engine()).deploy(request, { ...options, rollback: false })).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    expect((await h.state(request))!.template).toEqual(template(30));
    h.cloud.failOn.clear();
    expect((await h.rollback(request)).exitCode).toBe(0);
    expect(await h.state(request)).toBeUndefined();
  });
});

describe('a rollback that cannot persist the stack record it returned to', () => {
  it('reports failure, never a completion it did not achieve (UPDATE_ROLLBACK_FAILED); a re-run completes it', async () => {
    const { first, second } = await deployedThenChanged();
    await expect((await h.engine()).deploy(second, { ...options, rollback: false })).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    h.cloud.failOn.clear();

    // The save that puts the earlier generation back is refused, as by a lost connection.
    const store = h.backend.store;
    const save = store.saveText.bind(store);
    store.saveText = async (ref, text, etag) => {
      const restored = (JSON.parse(text) as { parameters: Record<string, string> }).parameters.Env === 'one';
      if (restored) throw new Error('the state bucket is unreachable');
      return save(ref, text, etag);
    };
    try {
      const failed = await h.rollback(first);
      expect(failed.exitCode).toBe(1);
      expect(await h.stackEvents(first)).toContainEqual(
        expect.objectContaining({
          status: 'ROLLBACK_FAILED',
          reason: expect.stringContaining(
            'the stack record could not be saved: the state bucket is unreachable',
          ),
        }),
      );
      expect(await h.stackEvents(first)).not.toContainEqual(
        expect.objectContaining({ status: 'ROLLBACK_COMPLETE' }),
      );
      expect((await h.state(first))!.parameters).toEqual({ Env: 'two' });
      expect(await h.journal(first)).toBeDefined();
    } finally {
      store.saveText = save;
    }

    expect((await h.rollback(first)).exitCode).toBe(2);
    expect((await h.state(first))!.parameters).toEqual({ Env: 'one' });
    // Only the failed update is left, for --revert-failed.
    const left = (await h.journal(first))!.segments;
    expect(left.map((segment) => segment.status)).toEqual(['failed-only']);
    expect(left[0]!.operations.map((op) => `${op.logicalId}:${op.status}`)).toEqual(['Late:failed']);
  });
});

describe('spec 004: an update writes the template, parameters and tags onto the stack record before it touches a resource', () => {
  it('the stored record already describes the attempt when the first resource call is sent', async () => {
    const { first, second } = await deployedThenChanged();
    h.cloud.failOn.clear();
    const seen: Array<{ template: unknown; parameters: unknown; tags: unknown }> = [];
    const update = h.cloud.provider.update.bind(h.cloud.provider);
    h.cloud.provider.update = async (request, context) => {
      const stored = (await h.state(first))!;
      seen.push({ template: stored.template, parameters: stored.parameters, tags: stored.tags });
      return update(request, context);
    };
    await (await h.engine()).deploy(second, options);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toEqual({ template: template(60), parameters: { Env: 'two' }, tags: { team: 'b' } });
  });

  it('an interrupted update keeps the attempted record; the journal keeps the earlier one and cdkd rollback restores it', async () => {
    const { first, second } = await deployedThenChanged();
    h.cloud.failOn.clear();
    const interrupt = new AbortController();
    const update = h.cloud.provider.update.bind(h.cloud.provider);
    h.cloud.provider.update = async (request, context) => {
      interrupt.abort();
      return update(request, context);
    };
    await expect(
      (await h.engine()).deploy(second, { ...options, signal: interrupt.signal }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    const kept = (await h.state(first))!;
    expect(kept.template).toEqual(template(60));
    expect(kept.parameters).toEqual({ Env: 'two' });
    const journal = (await h.journal(first))!;
    expect(journal.segments[0]).toMatchObject({
      status: 'interrupted',
      previous: { template: template(30), parameters: { Env: 'one' }, tags: { team: 'a' } },
    });

    expect((await h.rollback(first)).exitCode).toBe(0);
    const restored = (await h.state(first))!;
    expect(restored.template).toEqual(template(30));
    expect(restored.parameters).toEqual({ Env: 'one' });
    expect(restored.tags).toEqual({ team: 'a' });
  });

  it('a run stopped before it touched any resource leaves the record describing what is deployed', async () => {
    const { first, second } = await deployedThenChanged();
    h.cloud.failOn.clear();
    const interrupt = new AbortController();
    const store = h.backend.store;
    const save = store.saveText.bind(store);
    // The signal lands while the attempt is being recorded: no resource call is sent after it.
    store.saveText = async (ref, text, etag) => {
      const written = await save(ref, text, etag);
      if ((JSON.parse(text) as { parameters: Record<string, string> }).parameters.Env === 'two')
        interrupt.abort();
      return written;
    };
    h.cloud.calls.length = 0;
    try {
      await expect(
        (await h.engine()).deploy(second, { ...options, signal: interrupt.signal }),
      ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    } finally {
      store.saveText = save;
    }
    expect(h.cloud.calls).toEqual([]);
    expect(await h.journal(first)).toBeUndefined();
    const state = (await h.state(first))!;
    expect(state.template).toEqual(template(30));
    expect(state.parameters).toEqual({ Env: 'one' });
    expect(state.tags).toEqual({ team: 'a' });
  });
});
