import { describe, expect, it } from 'vitest';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { stackStateKeys } from '../../src/state/keys.js';
import { options, useRollbackHarness } from './rollback-harness.js';

/**
 * Spec 003, "The journal's lifetime", and spec 000, "Failed CREATEs that made their resource":
 * what `cdkd destroy` and a later successful deploy do with a rollback journal they cannot read,
 * or whose made resource they cannot delete, and how long a nested stack's journal lives.
 */
const h = useRollbackHarness();

const callsOf = (action: string, logicalId: string) =>
  h.cloud.calls.filter((call) => call.action === action && call.logicalId === logicalId);

/** Overwrites the stored journal of `stateName` with `text`, as a torn write or a hand edit leaves it. */
async function tearJournal(stateName: string, region: string, text: (stored: string) => string) {
  const key = stackStateKeys(h.backend.store.prefix, stateName, region).journal;
  const stored = (await h.backend.objects.get(key))!;
  await h.backend.objects.put(key, text(stored.text), { ifMatch: stored.etag });
  return key;
}

/** The bytes of the journal `stateName` had, wherever an unreadable one was set aside beside it. */
async function setAsideText(stateName: string, region: string): Promise<string | undefined> {
  const keys = stackStateKeys(h.backend.store.prefix, stateName, region);
  const base = keys.journal.replace(/\.json$/, '.unreadable-');
  const aside = (await h.backend.objects.listKeys(base)).filter((key) => key.endsWith('.json'));
  expect(aside).toHaveLength(1);
  expect(aside[0]).toMatch(/rollback-journal\.unreadable-[-0-9TZ]+\.json$/);
  return (await h.backend.objects.get(aside[0]!))?.text;
}

/** The warning naming where an unreadable journal went (spec 000: warned about, nothing it records deleted). */
const setAsideWarning = (stateName: string) =>
  new RegExp(
    `rollback journal of ${stateName} \\(us-east-1\\) cannot be read; nothing it records was acted on or deleted, and it was set aside as s3://rollback-test/cdkd/${stateName}/us-east-1/rollback-journal\\.unreadable-`,
  );

/** Two ways a journal cannot be read: not JSON at all, or JSON the journal schema refuses. */
const unreadable = [
  ['invalid JSON', () => '{ not json'],
  [
    'a document the schema refuses',
    (stored: string) => {
      const document = JSON.parse(stored) as { segments: Array<{ status: string }> };
      document.segments[0]!.status = 'not-a-status';
      return JSON.stringify(document);
    },
  ],
] as const;

describe('cdkd destroy and the rollback journal', () => {
  it.each(unreadable)(
    'a journal destroy cannot read (%s) is warned about and set aside beside it, and nothing it records is deleted',
    async (_label, tear) => {
      const { request, made, keep } = await h.madeWithoutRollback('AWS::SQS::Queue');
      h.cloud.madeThenFail.clear();
      const key = await tearJournal(request.stateName, request.region, tear);
      const torn = (await h.backend.objects.get(key))!.text;
      await expect(h.backend.journals.read(h.ref(request))).rejects.toThrow();
      h.cloud.calls.length = 0;

      const result = await (await h.engine()).destroy(request, options);
      expect(result).toMatchObject({ found: true, deleted: ['Keep'] });
      // The journal's made entry named `made`: only state's record was deleted.
      expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual([`delete:${keep}`]);
      expect(h.cloud.liveIds()).toEqual([made]);
      expect(h.events).toContainEqual(
        expect.objectContaining({
          kind: 'warning',
          stack: request.stackName,
          message: expect.stringMatching(setAsideWarning(request.stateName)),
        }),
      );
      expect(await h.backend.objects.get(key)).toBeUndefined();
      expect(await setAsideText(request.stateName, request.region)).toBe(torn);
      expect(await h.state(request)).toBeUndefined();
    },
  );

  it('a made-resource delete that fails keeps the state and the journal for a re-run', async () => {
    const { request, made, keep } = await h.madeWithoutRollback('AWS::SQS::Queue');
    h.cloud.madeThenFail.clear();
    const journalBefore = await h.journal(request);
    const stateBefore = await h.state(request);
    h.cloud.failOn.add('delete:Made');
    h.cloud.calls.length = 0;

    await expect((await h.engine()).destroy(request, options)).rejects.toMatchObject({
      code: 'DESTROY_FAILED',
      message: expect.stringContaining('injected delete failure on Made'),
      hint: expect.stringContaining('state and the rollback journal are kept'),
    });
    // Nothing else was deleted either: the state's resources are still there for the re-run.
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.liveIds()).toEqual([keep, made].sort());
    expect(await h.state(request)).toEqual(stateBefore);
    expect(await h.journal(request)).toEqual(journalBefore);

    // The re-run, once the cause is fixed, finishes the job.
    h.cloud.failOn.clear();
    await (await h.engine()).destroy(request, options);
    expect(callsOf('delete', 'Made').map((call) => call.physicalId)).toEqual([made]);
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
    expect(await h.state(request)).toBeUndefined();
  });
});

describe('a later deploy and a top-level journal it cannot read (spec 000, 003)', () => {
  it.each(unreadable)(
    'the deploy is not stopped (%s): the journal is warned about and set aside, nothing it records is deleted, exit 2',
    async (_label, tear) => {
      const { request, made, keep } = await h.madeWithoutRollback('AWS::SQS::Queue');
      h.cloud.madeThenFail.clear();
      const key = await tearJournal(request.stateName, request.region, tear);
      const torn = (await h.backend.objects.get(key))!.text;
      h.cloud.calls.length = 0;

      const result = await (await h.engine()).deploy(request, options);
      // Made's create is sent again; the resource the unreadable journal named is left alone.
      expect(result.unaddressed).toEqual([expect.stringMatching(setAsideWarning(request.stateName))]);
      expect(h.cloud.calls.filter((call) => call.action === 'delete')).toEqual([]);
      expect(h.cloud.live.has(made)).toBe(true);
      expect((await h.state(request))!.resources.Keep!.physicalId).toBe(keep);
      expect((await h.state(request))!.resources.Made).toBeDefined();
      expect(h.events).toContainEqual(
        expect.objectContaining({
          kind: 'warning',
          message: expect.stringMatching(setAsideWarning(request.stateName)),
        }),
      );
      expect(await h.journal(request)).toBeUndefined();
      expect(await setAsideText(request.stateName, request.region)).toBe(torn);
    },
  );

  it('a journal of a newer cdkd is not set aside: the deploy refuses (upgrade cdkd)', async () => {
    const { request } = await h.madeWithoutRollback('AWS::SQS::Queue');
    h.cloud.madeThenFail.clear();
    const key = await tearJournal(request.stateName, request.region, (stored) =>
      JSON.stringify({ ...JSON.parse(stored), version: 99 }),
    );
    await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'STATE_VERSION_UNSUPPORTED',
    });
    expect(await h.backend.objects.get(key)).toBeDefined();
  });
});

/** A deployed parent, then a `--no-rollback` deploy of it whose child succeeds and whose `Late` fails. */
async function parentFailedAfterChild(): Promise<{
  first: StackRequest;
  childRef: ReturnType<typeof h.ref>;
}> {
  const first = h.parentStack(30, false);
  await (await h.engine()).deploy(first, options);
  h.cloud.failOn.add('create:Late');
  await expect(
    (await h.engine()).deploy(h.parentStack(60, true, first), { ...options, rollback: false }),
  ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
  h.cloud.failOn.clear();
  return { first, childRef: { stackName: `${first.stateName}/Child`, region: first.region } };
}

describe("a nested stack's journal", () => {
  it("lives until the top-level deploy succeeds: the nested stack's successful deploy inside a parent deploy that then fails keeps it", async () => {
    const { first, childRef } = await parentFailedAfterChild();
    const runId = (await h.journal(first))!.segments[0]!.runId;
    const kept = (await h.backend.journals.read(childRef))!.document.segments;
    expect(kept).toMatchObject([
      {
        runId,
        status: 'succeeded',
        operations: [{ logicalId: 'Inner', action: 'update', status: 'completed' }],
      },
    ]);

    // The next successful top-level deploy removes it.
    const result = await (await h.engine()).deploy(h.parentStack(60, false, first), options);
    expect(result.unaddressed).toEqual([]);
    expect(await h.backend.journals.read(childRef)).toBeUndefined();
    expect(await h.journal(first)).toBeUndefined();
  });

  it.each(unreadable)(
    'that a later successful deploy cannot read (%s) is warned about and set aside, and nothing it records is deleted',
    async (_label, tear) => {
      const { first, childRef } = await parentFailedAfterChild();
      // A resource a failed create inside the nested stack made, which only its journal records.
      const read = (await h.backend.journals.read(childRef))!;
      read.document.segments[0]!.operations.push({
        seq: 99,
        logicalId: 'Ghost',
        action: 'create',
        type: 'AWS::EC2::VPC',
        status: 'failed',
        physicalId: 'vpc-ghost',
        made: { physicalId: 'vpc-ghost', provisionedBy: 'cc-api', properties: {} },
      });
      await h.backend.journals.writer(childRef)(read.document, read.etag);
      h.cloud.live.set('vpc-ghost', { type: 'AWS::EC2::VPC', properties: {} });
      const inner = (await h.backend.store.read(childRef))!.document.resources.Inner!.physicalId;
      const key = await tearJournal(childRef.stackName, childRef.region, tear);
      const torn = (await h.backend.objects.get(key))!.text;
      await expect(h.backend.journals.read(childRef)).rejects.toThrow();
      h.cloud.calls.length = 0;

      // The nested stack is unchanged, so only the journal's settling reaches it.
      const result = await (await h.engine()).deploy(h.parentStack(60, false, first), options);
      expect(result.unaddressed).toEqual([expect.stringMatching(setAsideWarning(childRef.stackName))]);
      expect(h.cloud.calls).toEqual([]);
      expect(h.cloud.live.has('vpc-ghost')).toBe(true);
      expect(h.cloud.live.get(inner)?.properties).toEqual({ VisibilityTimeout: '60' });
      expect(await h.backend.objects.get(key)).toBeUndefined();
      expect(await setAsideText(childRef.stackName, childRef.region)).toBe(torn);
      expect(await h.journal(first)).toBeUndefined();
    },
  );

  it('a readable one holding a made resource is settled by the same deploy (the control for the case above)', async () => {
    const { first, childRef } = await parentFailedAfterChild();
    const read = (await h.backend.journals.read(childRef))!;
    read.document.segments[0]!.operations.push({
      seq: 99,
      logicalId: 'Ghost',
      action: 'create',
      type: 'AWS::EC2::VPC',
      status: 'failed',
      physicalId: 'vpc-ghost',
      made: { physicalId: 'vpc-ghost', provisionedBy: 'cc-api', properties: {} },
    });
    await h.backend.journals.writer(childRef)(read.document, read.etag);
    h.cloud.live.set('vpc-ghost', { type: 'AWS::EC2::VPC', properties: {} });
    h.cloud.calls.length = 0;

    const result = await (await h.engine()).deploy(h.parentStack(60, false, first), options);
    expect(result.unaddressed).toEqual([]);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual(['delete:vpc-ghost']);
    expect(await h.backend.journals.read(childRef)).toBeUndefined();
  });
});

describe("a later successful deploy settles a nested stack's journal with that run's facts", () => {
  it("the child's own segment of the successful run is not a 'newer segment' that stops a made resource's delete", async () => {
    const child = (resources: Record<string, unknown>) => ({
      Parameters: { V: { Type: 'Number' } },
      Resources: {
        Inner: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: { Ref: 'V' } } },
        ...resources,
      },
    });
    const first = h.parentStack(30, false, undefined, child({}));
    await (await h.engine()).deploy(first, options);
    h.cloud.madeThenFail.add('create:Made');
    await expect(
      (await h.engine()).deploy(h.parentStack(60, false, first, child({ Made: { Type: 'AWS::EC2::VPC' } })), {
        ...options,
        rollback: false,
      }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    h.cloud.madeThenFail.clear();
    const made = h.cloud.calls.find(
      (call) => call.action === 'create' && call.logicalId === 'Made',
    )!.physicalId;

    // The fix-forward creates another resource of the same type in the child.
    const result = await (
      await h.engine()
    ).deploy(h.parentStack(90, false, first, child({ Other: { Type: 'AWS::EC2::VPC' } })), options);
    expect(result.unaddressed).toEqual([]);
    expect(h.cloud.live.has(made)).toBe(false);
  });
});
