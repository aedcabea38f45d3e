import { describe, expect, it } from 'vitest';
import { options, useRollbackHarness } from './rollback-harness.js';

const h = useRollbackHarness();

const callsOf = (action: string, logicalId: string) =>
  h.cloud.calls.filter((call) => call.action === action && call.logicalId === logicalId);

/**
 * The `previousProperties` of each update sent from now on. Kept out of `h.cloud.calls`:
 * state's masked properties are every update's baseline, and other tests assert no call holds a mask.
 */
function updateBaselines(): Array<Record<string, unknown>> {
  const baselines: Array<Record<string, unknown>> = [];
  const update = h.cloud.provider.update.bind(h.cloud.provider);
  h.cloud.provider.update = (request, context) => {
    baselines.push(request.previousProperties);
    return update(request, context);
  };
  return baselines;
}

const failedWithoutRollback = () => h.readerFailedWithoutRollback();

describe('--no-rollback, then cdkd rollback', () => {
  it('reverts nothing and keeps the journal; a declined rollback changes nothing; a confirmed one reverts and removes it', async () => {
    const { request, a, b } = await failedWithoutRollback();
    expect(h.cloud.liveIds()).toEqual([a, b].sort());
    expect(h.cloud.calls.filter((call) => call.action !== 'create')).toEqual([]);
    const journal = (await h.journal(request))!;
    expect(journal.segments.map((segment) => segment.status)).toEqual(['failed']);
    expect(journal.segments[0]!.operations.map((op) => `${op.logicalId}:${op.status}`)).toEqual([
      'A:completed',
      'B:completed',
      'C:failed',
    ]);

    const stored = await h.backend.journals.read(h.ref(request));
    const stateBefore = await h.backend.store.read(h.ref(request));
    h.cloud.calls.length = 0;
    let shown: string[] = [];
    const declined = await h.rollback(request, {
      confirm: async (lines) => {
        shown = lines;
        return false;
      },
    });
    expect(declined).toMatchObject({ found: true, confirmed: false, exitCode: 0 });
    expect(shown).toEqual(
      expect.arrayContaining([`B (AWS::SNS::Topic): delete ${b}`, `A (AWS::SQS::Queue): delete ${a}`]),
    );
    expect(h.cloud.calls).toEqual([]);
    expect((await h.backend.journals.read(h.ref(request)))!.etag).toBe(stored!.etag);
    expect((await h.backend.store.read(h.ref(request)))!.etag).toBe(stateBefore!.etag);

    const done = await h.rollback(request);
    expect(done).toMatchObject({ found: true, confirmed: true, exitCode: 0 });
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual([
      `delete:${b}`,
      `delete:${a}`,
    ]);
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
    expect(await h.state(request)).toBeUndefined();
    expect((await h.rollback(request)).found).toBe(false);
  });

  it('UpdateReplacePolicy: Retain on the replaced resource keeps the new copy, untracked, and exits 2', async () => {
    const { request, oldId, template } = await h.retainedQueueBeforeFailure();
    const attempt = { ...request, template: template('second-name', true) };
    await expect((await h.engine()).deploy(attempt, { ...options, rollback: false })).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const newId = callsOf('create', 'Queue')[0]!.physicalId;
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe(newId);

    h.cloud.calls.length = 0;
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.liveIds()).toEqual([oldId, newId].sort());
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.physicalId).toBe(oldId);
    expect(JSON.stringify(state)).not.toContain(newId);
    const events = await h.stackEvents(request);
    expect(events.filter((event) => event.status === 'DELETE_SKIPPED')).toMatchObject([
      { logicalId: 'Queue', survivorId: newId },
    ]);
    expect(events.filter((event) => event.status === 'ROLLBACK_RESOURCE_SUCCEEDED')).toMatchObject([
      { logicalId: 'Queue', survivorId: newId },
    ]);
    expect(h.rollbackEvents('Queue')).toMatchObject([{ status: 'succeeded', warn: true }]);
    expect(await h.journal(request)).toBeUndefined();
  });
});

describe('spec 003, "cdkd rollback exit 2"', () => {
  it('a rollback that leaves a failed operation in the journal (for --revert-failed) exits 2, not 0', async () => {
    const template = (timeout: number) => ({
      Resources: {
        X: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: timeout } },
        Y: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: `y-${timeout}` } },
      },
    });
    const request = h.stack(template(30));
    await (await h.engine()).deploy(request, options);
    h.cloud.failOn.add('update:X');
    await expect(
      (await h.engine()).deploy({ ...request, template: template(60) }, { ...options, rollback: false }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    h.cloud.failOn.delete('update:X');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    // Y's completed update was reverted; X's failed one is what the journal keeps.
    expect((await h.journal(request))!.segments[0]!.operations.map((op) => op.logicalId)).toEqual(['X']);
  });
});

describe('--revert-failed', () => {
  it('UPDATE: force-reverted to its pre-deploy properties, diffed against the attempted ones (a real undo diff)', async () => {
    const template = (timeout: number) => ({
      Resources: { X: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: timeout } } },
    });
    const request = h.stack(template(30));
    await (await h.engine()).deploy(request, options);
    const deployed = (await h.state(request))!.resources.X!;
    h.cloud.failOn.add('update:X');
    await expect(
      (await h.engine()).deploy({ ...request, template: template(60) }, { ...options, rollback: false }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    const failed = (await h.journal(request))!.segments[0]!.operations.find((op) => op.logicalId === 'X')!;
    expect(failed).toMatchObject({ action: 'update', status: 'failed' });
    expect(failed.attempted).not.toEqual(deployed.properties);

    h.cloud.failOn.delete('update:X');
    h.cloud.calls.length = 0;
    // A plain rollback passes the failed UPDATE over and keeps it for --revert-failed, as its plan line says.
    const plain = await h.rollback(request);
    expect(plain.lines).toEqual([expect.stringContaining('cdkd rollback --revert-failed reverts it')]);
    // Spec 003, "cdkd rollback exit 2": the failed operation the journal keeps needs a person.
    expect(plain.exitCode).toBe(2);
    expect(callsOf('update', 'X')).toEqual([]);
    expect((await h.journal(request))!.segments[0]!.operations.map((op) => op.logicalId)).toEqual(['X']);

    const baselines = updateBaselines();
    const result = await h.rollback(request, { revertFailed: true });
    expect(result.exitCode).toBe(0);
    expect(callsOf('update', 'X')).toMatchObject([
      { physicalId: deployed.physicalId, properties: deployed.properties },
    ]);
    expect(baselines).toEqual([failed.attempted]);
    expect(await h.journal(request)).toBeUndefined();
  });
});

describe('a failed create that made its resource (ResourceMadeError)', () => {
  const madeWithoutRollback = (type: string) => h.madeWithoutRollback(type);

  it.each(['AWS::SQS::Queue', 'AWS::EC2::VPC'])(
    '(%s) is deleted by a later successful deploy, which then removes the journal',
    async (type) => {
      const { request, made, keep } = await madeWithoutRollback(type);
      h.cloud.calls.length = 0;
      const result = await (
        await h.engine()
      ).deploy({ ...request, template: { Resources: { Keep: { Type: 'AWS::SQS::Queue' } } } }, options);
      expect(result.unaddressed).toEqual([]);
      expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual([`delete:${made}`]);
      expect(h.cloud.liveIds()).toEqual([keep]);
      expect(await h.journal(request)).toBeUndefined();
    },
  );

  it('is only warned about by a fix-forward that puts another resource under its logical id (exit 2)', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    h.cloud.madeThenFail.clear();
    const result = await (await h.engine()).deploy(request, options);
    expect(result.unaddressed).toEqual([expect.stringContaining(made)]);
    expect(h.cloud.live.has(made)).toBe(true);
    expect(callsOf('delete', 'Made')).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('is deleted by cdkd rollback', async () => {
    const { request } = await madeWithoutRollback('AWS::SQS::Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('is deleted by cdkd destroy before the journal goes with the state', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    h.cloud.calls.length = 0;
    await (await h.engine()).destroy(request, options);
    expect(h.cloud.calls[0]).toMatchObject({ action: 'delete', physicalId: made });
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
    expect(await h.state(request)).toBeUndefined();
  });
});

describe('an in-flight create a killed process left', () => {
  async function killedDeploy() {
    const request = h.stack({ Resources: { Keep: { Type: 'AWS::SQS::Queue' } } });
    await (await h.engine()).deploy(request, options);
    h.cloud.live.set('lost-99', {
      type: 'AWS::SQS::Queue',
      properties: { DelaySeconds: 5 },
      token: 'tok-lost',
    });
    await h.writeJournal(request, [
      {
        logicalId: 'Lost',
        action: 'create',
        type: 'AWS::SQS::Queue',
        status: 'in-flight',
        attempted: { DelaySeconds: 5 },
        idempotencyToken: 'tok-lost',
      },
    ]);
    h.cloud.calls.length = 0;
    return request;
  }

  it('is found by its idempotency token and deleted', async () => {
    const request = await killedDeploy();
    h.cloud.enableLocate();
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual(['delete:lost-99']);
    expect(h.cloud.liveIds()).toEqual([(await h.state(request))!.resources.Keep!.physicalId]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('without a provider that can locate it, is skipped with a warning (exit 2) and left alone', async () => {
    const request = await killedDeploy();
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.live.has('lost-99')).toBe(true);
    expect(h.rollbackEvents('Lost')).toMatchObject([{ status: 'skipped', warn: true }]);
    const skipped = (await h.stackEvents(request)).filter(
      (event) => event.status === 'ROLLBACK_RESOURCE_SKIPPED',
    );
    expect(skipped.map((event) => event.logicalId)).toEqual(['Lost']);
    // Its resource may exist and the entry is its only record: the journal keeps it for a re-run.
    expect((await h.journal(request))?.segments.flatMap((segment) => segment.operations)).toMatchObject([
      { logicalId: 'Lost', status: 'in-flight', idempotencyToken: 'tok-lost' },
    ]);
    expect(result.kept).toBe(1);
  });
});

describe('an operation cdkd cannot address', () => {
  const deployed = async () => {
    const request = h.stack({ Resources: { Q: { Type: 'AWS::SQS::Queue' } } });
    await (await h.engine()).deploy(request, options);
    h.cloud.calls.length = 0;
    return request;
  };

  it.each([
    ['empty', ''],
    ['whitespace-only', '   '],
    ['not a string', 42],
    ['missing', undefined],
  ])(
    'a completed create whose journaled physicalId is %s is skipped with a warning, nothing sent',
    async (_label, id) => {
      const request = await deployed();
      const before = (await h.state(request))!;
      await h.writeJournal(request, [
        {
          logicalId: 'Q',
          action: 'create',
          type: 'AWS::SQS::Queue',
          status: 'completed',
          ...(id === undefined ? {} : { physicalId: id }),
        },
      ]);
      const result = await h.rollback(request);
      expect(result.exitCode).toBe(2);
      expect(h.cloud.calls).toEqual([]);
      expect((await h.state(request))!.resources).toEqual(before.resources);
      expect(h.cloud.liveIds()).toEqual([before.resources.Q!.physicalId]);
      expect(h.rollbackEvents('Q')).toMatchObject([{ status: 'skipped', warn: true }]);
      // Issue 25 item 15: the entry it cannot address stays in the journal, readable.
      expect((await h.journal(request))?.segments.flatMap((segment) => segment.operations)).toMatchObject([
        { logicalId: 'Q', action: 'create', status: 'completed' },
      ]);
    },
  );

  it('an update whose state record has a whitespace-only physicalId is skipped with a warning', async () => {
    const request = await deployed();
    const read = (await h.backend.store.read(h.ref(request)))!;
    const record = read.document.resources.Q!;
    read.document.resources.Q = { ...record, physicalId: '   ' };
    await h.backend.store.save(h.ref(request), read.document, read.etag);
    await h.writeJournal(request, [
      {
        logicalId: 'Q',
        action: 'update',
        type: 'AWS::SQS::Queue',
        status: 'completed',
        before: { ...record, properties: { DelaySeconds: 1 } },
        physicalId: '   ',
      },
    ]);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.calls).toEqual([]);
    expect((await h.state(request))!.resources.Q!.physicalId).toBe('   ');
  });

  it('a made resource the journal cannot name is skipped with a warning', async () => {
    const request = await deployed();
    await h.writeJournal(request, [
      {
        logicalId: 'Made',
        action: 'create',
        type: 'AWS::SQS::Queue',
        status: 'failed',
        physicalId: '',
        made: { physicalId: '', provisionedBy: 'cc-api', properties: {} },
      },
    ]);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.calls).toEqual([]);
    expect(h.rollbackEvents('Made')).toEqual(
      expect.arrayContaining([expect.objectContaining({ status: 'skipped', warn: true })]),
    );
  });
});

describe('--orphan and --force', () => {
  it('--orphan leaves the named logical id alone', async () => {
    const { request, a, b } = await failedWithoutRollback();
    h.cloud.calls.length = 0;
    const result = await h.rollback(request, { orphan: new Set(['A']) });
    expect(result.exitCode).toBe(0);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual([`delete:${b}`]);
    expect(h.cloud.liveIds()).toEqual([a]);
    const state = (await h.state(request))!;
    expect(Object.keys(state.resources)).toEqual(['A']);
    expect(state.resources.A!.physicalId).toBe(a);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('without --force a failed step fails the rollback (exit 1) and keeps the journal', async () => {
    const { request, a, b } = await failedWithoutRollback();
    h.cloud.failOn.add('delete:B');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.live.has(b)).toBe(true);
    // A, which B reads, waits for B's step: with B still there, A is not deleted under it.
    expect(h.cloud.live.has(a)).toBe(true);
    expect(h.rollbackEvents('A')).toMatchObject([
      { status: 'skipped', message: expect.stringContaining('not run: it waits for B') },
    ]);
    // State still names exactly what is live: nothing untracked.
    const resources = (await h.state(request))!.resources;
    expect(resources.B!.physicalId).toBe(b);
    expect(
      Object.values(resources)
        .map((record) => record.physicalId)
        .sort(),
    ).toEqual(h.cloud.liveIds());
    expect((await h.journal(request))!.segments.map((segment) => segment.status)).toEqual(['failed']);

    // The kept journal lets a re-run finish once the cause is fixed.
    h.cloud.failOn.delete('delete:B');
    expect((await h.rollback(request)).exitCode).toBe(0);
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('--force orphans a step that fails: dropped from state, left in AWS, exit 2', async () => {
    const { request, b } = await failedWithoutRollback();
    h.cloud.failOn.add('delete:B');
    h.cloud.calls.length = 0;
    const result = await h.rollback(request, { force: true });
    expect(result.exitCode).toBe(2);
    expect(h.cloud.liveIds()).toEqual([b]);
    expect((await h.state(request))?.resources ?? {}).toEqual({});
    expect(h.rollbackEvents('B')).toMatchObject([{ status: 'skipped', warn: true }]);
    const skipped = (await h.stackEvents(request)).filter(
      (event) => event.logicalId === 'B' && event.status.startsWith('ROLLBACK'),
    );
    expect(skipped).toMatchObject([{ status: 'ROLLBACK_RESOURCE_SKIPPED', survivorId: b }]);
    expect(await h.journal(request)).toBeUndefined();
  });
});

describe('--force on the made copy of a failed replacement', () => {
  it('orphans the made copy, never the state record of the resource the replacement was replacing', async () => {
    const template = (name: string) => ({
      Resources: { Q: { Type: 'AWS::SQS::Queue', Properties: { QueueName: name } } },
    });
    const request = h.stack(template('first'));
    await (await h.engine()).deploy(request, options);
    const old = (await h.state(request))!.resources.Q!;
    h.cloud.madeThenFail.add('create:Q');
    await expect(
      (await h.engine()).deploy(
        { ...request, template: template('second') },
        { ...options, rollback: false },
      ),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    h.cloud.madeThenFail.clear();
    const made = h.cloud.liveIds().find((id) => id !== old.physicalId)!;

    h.cloud.failOn.add('delete:Q');
    const result = await h.rollback(request, { force: true });
    expect(result.exitCode).toBe(2);
    expect((await h.state(request))!.resources.Q).toEqual(old);
    expect(h.cloud.liveIds().sort()).toEqual([old.physicalId, made].sort());
    const events = (await h.stackEvents(request)).filter((event) => event.logicalId === 'Q');
    expect(events).toContainEqual(
      expect.objectContaining({ status: 'ROLLBACK_RESOURCE_SKIPPED', survivorId: made }),
    );
    expect(events.filter((event) => event.survivorId === old.physicalId)).toEqual([]);
  });
});

describe('a re-run after a failed rollback', () => {
  it('does not meet again what the first run reverted: a reversed replacement is not warned about (exit 0)', async () => {
    const template = (name: string, display: string, withLate: boolean) => ({
      Resources: {
        Q: { Type: 'AWS::SQS::Queue', Properties: { QueueName: name } },
        T: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: display } },
        ...(withLate ? { Late: { Type: 'AWS::SQS::Queue', DependsOn: ['Q', 'T'] } } : {}),
      },
    });
    const request = h.stack(template('first', 'one', false));
    await (await h.engine()).deploy(request, options);
    const oldQueue = (await h.state(request))!.resources.Q!.physicalId;
    h.cloud.failOn.add('create:Late');
    await expect(
      (await h.engine()).deploy(
        { ...request, template: template('second', 'two', true) },
        {
          ...options,
          rollback: false,
        },
      ),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    h.cloud.failOn.add('update:T');
    expect((await h.rollback(request)).exitCode).toBe(1);
    expect((await h.state(request))!.resources.Q!.physicalId).toBe(oldQueue);
    const kept = (await h.journal(request))!.segments[0]!.operations.map((op) => op.logicalId);
    expect(kept).not.toContain('Q');
    expect(kept).toContain('T');

    h.cloud.failOn.delete('update:T');
    const rerun = await h.rollback(request);
    expect(rerun.exitCode).toBe(0);
    expect(h.cloud.live.get((await h.state(request))!.resources.T!.physicalId)?.properties).toEqual({
      DisplayName: 'one',
    });
  });
});
