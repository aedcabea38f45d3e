import { describe, expect, it } from 'vitest';
import type { StackRequest } from '../../src/engine/stack-request.js';
import type { ImportMark } from '../../src/state/documents/journal-document.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';
import { type HandOperation, resourceRecord, useRollbackHarness } from './rollback-harness.js';

/**
 * Spec 001, "Interaction with cdkd import": `cdkd import` marks each logical id it adopts in the
 * journal, and the rollback runs none of the journaled operations for that id. The plan lines
 * themselves are unit-tested in test/rollback/decisions/import-marks.test.ts; these run the
 * rollback end to end against the fake cloud.
 */
const h = useRollbackHarness();

const QUEUE = 'AWS::SQS::Queue';
const TOPIC = 'AWS::SNS::Topic';
const ADOPTED = 'adopted by cdkd import after this deploy, left as it is';
const BY_HAND = 'not reverted, check that resource by hand';

const record = (physicalId: string, type = QUEUE, properties: Record<string, unknown> = {}): ResourceRecord =>
  resourceRecord(type, physicalId, properties);

const mark = (logicalId: string, physicalId: string, type = QUEUE): ImportMark => ({
  logicalId,
  type,
  physicalId,
  at: new Date().toISOString(),
});

/** A stack whose state holds `resources`, each also live in the fake cloud. */
async function stackWith(resources: Record<string, ResourceRecord>): Promise<StackRequest> {
  const request = h.stack({});
  const state = emptyStateDocument(request.stateName, request.region);
  state.resources = resources;
  for (const resource of Object.values(resources)) {
    h.cloud.live.set(resource.physicalId, { type: resource.type, properties: resource.properties });
  }
  await h.backend.store.save(h.ref(request), state, undefined);
  return request;
}

const created = (logicalId: string, physicalId: string, type = QUEUE): HandOperation => ({
  logicalId,
  action: 'create',
  type,
  status: 'completed',
  physicalId,
  after: record(physicalId, type),
});

async function skippedEvents(request: StackRequest) {
  return (await h.stackEvents(request)).filter((event) => event.status === 'ROLLBACK_RESOURCE_SKIPPED');
}

describe('a logical id cdkd import adopted after the failed deploy', () => {
  it('the same resource the import adopted (same physical ID and type) is left alone: no call, the plan line says so, exit 0', async () => {
    // The deploy created `jobs` and failed; the user deleted it, made it again by hand under the
    // same name and imported it. Without the mark the rollback would delete the user's resource.
    const request = await stackWith({ Queue: record('jobs'), Other: record('other-1', TOPIC) });
    await h.writeJournal(request, [created('Other', 'other-1', TOPIC), created('Queue', 'jobs')], undefined, [
      mark('Queue', 'jobs'),
    ]);

    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(result.lines).toContain(`Queue (${QUEUE}): skip: ${ADOPTED}`);
    // The operation the mark does not cover is rolled back as usual.
    expect(result.lines).toContain(`Other (${TOPIC}): delete other-1`);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual(['delete:other-1']);
    expect(h.cloud.liveIds()).toEqual(['jobs']);
    const state = (await h.state(request))!;
    expect(Object.keys(state.resources)).toEqual(['Queue']);
    expect(state.resources.Queue!.physicalId).toBe('jobs');
    expect(await skippedEvents(request)).toMatchObject([
      { logicalId: 'Queue', physicalId: 'jobs', reason: ADOPTED },
    ]);
    // Once its segment is gone, the plan line and the event are the record.
    expect(await h.journal(request)).toBeUndefined();
  });

  it('a different resource under the same logical ID (another physical ID) is left alone, warned about, exit 2', async () => {
    const request = await stackWith({ Queue: record('jobs-by-hand') });
    await h.writeJournal(request, [created('Queue', 'jobs')], undefined, [mark('Queue', 'jobs-by-hand')]);

    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    const line = `recorded jobs, which cdkd import has since replaced under this id; ${BY_HAND}`;
    expect(result.lines).toEqual([`Queue (${QUEUE}): skip: ${line}`]);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.liveIds()).toEqual(['jobs-by-hand']);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe('jobs-by-hand');
    expect(h.rollbackEvents('Queue')).toMatchObject([
      { status: 'skipped', warn: true, message: expect.stringContaining(line) },
    ]);
    expect(await skippedEvents(request)).toMatchObject([{ logicalId: 'Queue', reason: line }]);
  });

  it('a different resource under the same logical ID (another type) is left alone, warned about, exit 2', async () => {
    const request = await stackWith({ Queue: record('jobs', TOPIC) });
    await h.writeJournal(request, [created('Queue', 'jobs')], undefined, [mark('Queue', 'jobs', TOPIC)]);

    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(result.lines).toEqual([
      `Queue (${QUEUE}): skip: recorded jobs, which cdkd import has since replaced under this id; ${BY_HAND}`,
    ]);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.liveIds()).toEqual(['jobs']);
  });

  it('a replacement whose new resource the import adopted, while the old one was kept: left alone, warned about, exit 2', async () => {
    const request = await stackWith({ Queue: record('jobs-2') });
    h.cloud.live.set('jobs', { type: QUEUE, properties: {} });
    await h.writeJournal(
      request,
      [
        {
          logicalId: 'Queue',
          action: 'replace',
          type: QUEUE,
          status: 'completed',
          physicalId: 'jobs-2',
          previousPhysicalId: 'jobs',
          before: record('jobs'),
          after: record('jobs-2'),
          updateReplacePolicy: 'Retain',
          verdict: { replacement: true, order: 'create-first', oldRetained: true },
        },
      ],
      undefined,
      [mark('Queue', 'jobs-2')],
    );

    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    const line = `replaced jobs but kept it, and cdkd import has since adopted jobs-2 under this id; ${BY_HAND}`;
    expect(result.lines).toEqual([`Queue (${QUEUE}): skip: ${line}`]);
    // Without the mark this would re-adopt `jobs` and move state off the imported resource.
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.liveIds()).toEqual(['jobs', 'jobs-2']);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe('jobs-2');
    expect(await skippedEvents(request)).toMatchObject([{ logicalId: 'Queue', reason: line }]);
  });

  it('--orphan: completed operations of an ID you pass to --orphan are not covered by the mark; the flag is honoured', async () => {
    const request = await stackWith({ Queue: record('jobs-by-hand') });
    await h.writeJournal(request, [created('Queue', 'jobs')], undefined, [mark('Queue', 'jobs-by-hand')]);

    const result = await h.rollback(request, { orphan: new Set(['Queue']) });
    // The mark's line would warn and exit 2; --orphan leaves it as it is, quietly.
    expect(result.lines).toEqual([`Queue (${QUEUE}): skip: left as it is (--orphan)`]);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.liveIds()).toEqual(['jobs-by-hand']);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('later deploys: segments that later deploys add carry no mark and are replayed as usual', async () => {
    const request = await stackWith({ Queue: record('jobs', QUEUE, { VisibilityTimeout: 60 }) });
    await h.writeSegments(request, [
      // The failed deploy that created `jobs`; cdkd import then adopted it.
      { operations: [created('Queue', 'jobs')], importMarks: [mark('Queue', 'jobs')] },
      // A later failed deploy that updated it.
      {
        operations: [
          {
            logicalId: 'Queue',
            action: 'update',
            type: QUEUE,
            status: 'completed',
            physicalId: 'jobs',
            previousPhysicalId: 'jobs',
            before: record('jobs', QUEUE, { VisibilityTimeout: 30 }),
            after: record('jobs', QUEUE, { VisibilityTimeout: 60 }),
          },
        ],
      },
    ]);

    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(result.lines).toEqual([
      `Queue (${QUEUE}): revert jobs to its pre-deploy properties`,
      `Queue (${QUEUE}): skip: ${ADOPTED}`,
    ]);
    expect(h.cloud.calls).toMatchObject([
      { action: 'update', physicalId: 'jobs', properties: { VisibilityTimeout: 30 } },
    ]);
    expect(h.cloud.live.get('jobs')?.properties).toEqual({ VisibilityTimeout: 30 });
    expect(h.cloud.liveIds()).toEqual(['jobs']);
    expect(await h.journal(request)).toBeUndefined();
  });
});

describe('failed operations under an import mark follow the same rules, with or without --revert-failed', () => {
  it.each([false, true])(
    'a failed create that made its resource, which the import adopted, is left alone (--revert-failed: %s)',
    async (revertFailed) => {
      const { request, made, keep } = await h.madeWithoutRollback(QUEUE);
      h.cloud.madeThenFail.clear();
      // What cdkd import does: the mark first, then the state record.
      const journal = (await h.backend.journals.read(h.ref(request)))!;
      journal.document.segments[0]!.importMarks.push(mark('Made', made));
      await h.backend.journals.writer(h.ref(request))(journal.document, journal.etag);
      const state = (await h.backend.store.read(h.ref(request)))!;
      state.document.resources.Made = record(made);
      await h.backend.store.save(h.ref(request), state.document, state.etag);
      h.cloud.calls.length = 0;

      const result = await h.rollback(request, { revertFailed });
      expect(result.exitCode).toBe(0);
      expect(result.lines).toContain(`Made (${QUEUE}): skip: ${ADOPTED}`);
      // Without the mark a plain rollback deletes it (rollback-command.test.ts).
      expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual([`delete:${keep}`]);
      expect(h.cloud.liveIds()).toEqual([made]);
      expect((await h.state(request))!.resources.Made!.physicalId).toBe(made);
      expect(await skippedEvents(request)).toContainEqual(
        expect.objectContaining({ logicalId: 'Made', reason: ADOPTED }),
      );
      expect(await h.journal(request)).toBeUndefined();
    },
  );

  it.each([false, true])(
    'a failed update whose logical id the import took over with a different resource warns and exits 2, sending nothing (--revert-failed: %s)',
    async (revertFailed) => {
      const request = await stackWith({ Queue: record('jobs-by-hand', QUEUE, { VisibilityTimeout: 60 }) });
      await h.writeJournal(
        request,
        [
          {
            logicalId: 'Queue',
            action: 'update',
            type: QUEUE,
            status: 'failed',
            physicalId: 'jobs',
            previousPhysicalId: 'jobs',
            before: record('jobs', QUEUE, { VisibilityTimeout: 30 }),
            attempted: { VisibilityTimeout: 60 },
          },
        ],
        undefined,
        [mark('Queue', 'jobs-by-hand')],
      );

      const result = await h.rollback(request, { revertFailed });
      // Unmarked, a failed update is passed over quietly (exit 0) or force-reverted under --revert-failed.
      expect(result.exitCode).toBe(2);
      const line = `recorded jobs, which cdkd import has since replaced under this id; ${BY_HAND}`;
      expect(result.lines).toEqual([`Queue (${QUEUE}): skip: ${line}`]);
      expect(h.cloud.calls).toEqual([]);
      expect(h.cloud.live.get('jobs-by-hand')?.properties).toEqual({ VisibilityTimeout: 60 });
      expect(await skippedEvents(request)).toMatchObject([{ logicalId: 'Queue', reason: line }]);
    },
  );
});

describe('an import by an older cdkd, which wrote no mark', () => {
  it('a failed create whose physical ID such an import replaced is still left alone with a warning (exit 2); the plan line cannot say an import caused it', async () => {
    const { request, made, keep } = await h.madeWithoutRollback(QUEUE);
    h.cloud.madeThenFail.clear();
    h.cloud.live.set('made-by-hand', { type: QUEUE, properties: {} });
    const state = (await h.backend.store.read(h.ref(request)))!;
    state.document.resources.Made = record('made-by-hand');
    await h.backend.store.save(h.ref(request), state.document, state.etag);
    h.cloud.calls.length = 0;

    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    const line = result.lines.find((entry) => entry.startsWith('Made '))!;
    expect(line).toContain(made);
    expect(line).not.toContain('cdkd import');
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toEqual([`delete:${keep}`]);
    expect(h.cloud.liveIds()).toEqual([made, 'made-by-hand'].sort());
  });
});
