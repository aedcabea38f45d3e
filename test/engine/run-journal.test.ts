import { describe, expect, it, vi } from 'vitest';
import { RunJournal } from '../../src/engine/journal/run-journal.js';
import { reconcileInFlight } from '../../src/rollback/reconcile.js';
import type { JournalDocument } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord, StateDocument } from '../../src/state/documents/state-document.js';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { JournalStore } from '../../src/state/journal-store.js';
import { MemoryObjects } from '../helpers/memory-objects.js';

const ref = { stackName: 'Journaled', region: 'us-east-1' };
const run = { runId: 'run-1', flags: {}, previous: { parameters: {}, tags: {}, outputs: {}, imports: [] } };

/** A real journal store over objects kept in memory: `read` is what a rollback after a kill would find. */
function store() {
  const objects = new MemoryObjects();
  const journalStore = new JournalStore(objects.asS3Objects(), 'cdkd');
  const documentKey = 'cdkd/Journaled/us-east-1/rollback-journal.json';
  const tailsPrefix = 'cdkd/Journaled/us-east-1/rollback-journal/';
  return {
    objects,
    journalStore,
    /** The document as stored, without its tails. */
    stored: () => JSON.parse(objects.objects.get(documentKey)!.text) as JournalDocument,
    tails: () => objects.keysUnder(tailsPrefix),
    read: async () => (await journalStore.read(ref))?.document,
  };
}

function record(physicalId: string): ResourceRecord {
  return {
    type: 'AWS::SQS::Queue',
    physicalId,
    properties: { DelaySeconds: 5 },
    attributes: { Arn: `arn:${physicalId}` },
    dependencies: [],
    provisionedBy: 'sdk',
  } as ResourceRecord;
}

const statusesIn = (document: JournalDocument | undefined) =>
  document?.segments[0]?.operations.map((op) => `${op.logicalId}:${op.status}`);

describe('the journal marks an operation completed without the caller waiting for a write', () => {
  it('a create: no write of its own; the next write of the whole document (the run status) carries the mark', async () => {
    const { journalStore, stored, tails, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const first = await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    expect(statusesIn(stored())).toEqual(['A:in-flight']);

    journal.complete(first, { physicalId: 'a', after: record('a') });
    await journal.flush();
    expect(tails()).toEqual([]);
    expect(statusesIn(await read())).toEqual(['A:in-flight']);

    await journal.setStatus('succeeded');
    expect(statusesIn(stored())).toEqual(['A:completed']);
    expect(stored().segments[0]!.operations[0]!.after).toEqual(record('a'));
  });

  it('a delete: no write of its own, written with the run status', async () => {
    const { journalStore, stored, tails } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const op = await journal.begin({
      logicalId: 'A',
      action: 'delete',
      type: 'AWS::SQS::Queue',
      physicalId: 'a',
      before: record('a'),
    });
    journal.complete(op, {});
    await journal.flush();
    expect(tails()).toEqual([]);
    expect(statusesIn(stored())).toEqual(['A:in-flight']);
    await journal.setStatus('succeeded');
    expect(statusesIn(stored())).toEqual(['A:completed']);
  });

  it("an update's verdict, which state cannot tell, is written at once", async () => {
    const { journalStore, tails, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const op = await journal.begin({
      logicalId: 'A',
      action: 'update',
      type: 'AWS::SQS::QueuePolicy',
      physicalId: 'a',
      before: record('a'),
    });
    journal.complete(op, { physicalId: 'a2', after: record('a2'), verdict: { replacement: false } });
    await journal.flush();
    expect(tails()).toHaveLength(1);
    expect((await read())!.segments[0]!.operations[0]).toMatchObject({
      status: 'completed',
      verdict: { replacement: false },
    });
  });

  it('a mark whose write failed is written again by flush, which throws when that fails too', async () => {
    const { objects, journalStore, stored, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const op = await journal.begin({ logicalId: 'A', action: 'update', type: 'AWS::SQS::Queue' });
    objects.failPuts(1, 'rollback-journal/');
    journal.complete(op, { after: record('a'), verdict: { replacement: false } });
    await journal.flush();
    expect(statusesIn(stored())).toEqual(['A:completed']);

    const second = await journal.begin({ logicalId: 'B', action: 'update', type: 'AWS::SQS::Queue' });
    objects.failPuts(2);
    journal.complete(second, { after: record('b'), verdict: { replacement: false } });
    await expect(journal.flush()).rejects.toThrow('write refused');
    expect(statusesIn(await read())).toEqual(['A:completed', 'B:in-flight']);
  });
});

describe('once the document holding its run is stored, each change is a tail of its own', () => {
  it('a reader after a kill finds every operation begun, though the document holds only the first', async () => {
    const { journalStore, stored, tails, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    const b = await journal.begin({ logicalId: 'B', action: 'create', type: 'AWS::SQS::Queue' });
    await journal.begin({ logicalId: 'C', action: 'create', type: 'AWS::SQS::Queue' });
    await journal.note(b, { acceptedRequest: 'request-b' });
    expect(statusesIn(stored())).toEqual(['A:in-flight']);
    expect(tails()).toHaveLength(3);
    const found = await read();
    expect(statusesIn(found)).toEqual(['A:in-flight', 'B:in-flight', 'C:in-flight']);
    expect(found!.segments[0]!.operations[1]!.acceptedRequest).toBe('request-b');
  });

  it('operations begun together before the document is stored share its first write', async () => {
    const { journalStore, stored, tails } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    await Promise.all(
      ['A', 'B', 'C'].map((logicalId) =>
        journal.begin({ logicalId, action: 'create', type: 'AWS::SQS::Queue' }),
      ),
    );
    expect(statusesIn(stored())).toEqual(['A:in-flight', 'B:in-flight', 'C:in-flight']);
    expect(tails()).toEqual([]);
  });

  it("a fact nobody waits for (Cloud Control's accepted request) waits up to 20 ms to ride in the next change's tail", async () => {
    const { journalStore, tails, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const a = await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    vi.useFakeTimers();
    try {
      const noted = journal.note(a, { acceptedRequest: 'request-a' });
      await vi.advanceTimersByTimeAsync(10);
      expect(tails()).toEqual([]);
      const begun = journal.begin({ logicalId: 'B', action: 'create', type: 'AWS::SQS::Queue' });
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all([noted, begun]);
      expect(tails()).toHaveLength(1);

      const begunC = journal.begin({ logicalId: 'C', action: 'create', type: 'AWS::SQS::Queue' });
      await vi.advanceTimersByTimeAsync(1);
      const alone = journal.note(await begunC, { acceptedRequest: 'request-c' });
      await vi.advanceTimersByTimeAsync(20);
      await alone;
      expect(tails()).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
    const found = await read();
    expect(found!.segments[0]!.operations.map((op) => op.acceptedRequest)).toEqual([
      'request-a',
      undefined,
      'request-c',
    ]);
  });

  it('an operation dropped while its change waits for a tail is not written back, and the journal stays readable', async () => {
    const { journalStore, tails, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    const b = await journal.begin({ logicalId: 'B', action: 'create', type: 'AWS::SQS::Queue' });
    const noted = journal.note(b, { acceptedRequest: 'request-b' });
    await journal.dropUnapplied(b);
    await noted;
    await journal.flush();
    // B's begin tail went with the document's rewrite that dropped B; its note was never written.
    expect(tails()).toEqual([]);
    expect(statusesIn(await read())).toEqual(['A:in-flight']);
  });

  it("another writer's document supersedes the first writer's tails: one landing late is never read, and the rest are deleted", async () => {
    const { journalStore, stored, tails, read } = store();
    const killed = await RunJournal.open(journalStore, ref, run);
    await killed.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    const b = await killed.begin({ logicalId: 'B', action: 'create', type: 'AWS::SQS::Queue' });
    const killedWriter = stored().writer!;

    const next = await RunJournal.open(journalStore, ref, { ...run, runId: 'run-2' });
    expect(statusesIn(next.document)).toEqual(['A:in-flight', 'B:in-flight']);
    await next.begin({ logicalId: 'X', action: 'create', type: 'AWS::SNS::Topic' });
    await next.flush();
    // The killed process's tail for B's acceptance, on the wire when it died, lands now.
    await journalStore.writeTail(ref, {
      version: 1,
      writer: killedWriter,
      generation: 99,
      runId: 'run-1',
      operations: [{ ...b, acceptedRequest: 'late' }],
    });
    expect((await read())!.segments[0]!.operations[1]!.acceptedRequest).toBeUndefined();
    expect(tails().filter((key) => key.includes(killedWriter))).toHaveLength(1);
  });

  it('every 64 tails writes the whole document again and deletes the tails it holds', async () => {
    const { journalStore, stored, tails, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    for (let i = 0; i < 70; i++) {
      await journal.begin({ logicalId: `Q${i}`, action: 'create', type: 'AWS::SQS::Queue' });
    }
    await journal.flush();
    // The first begin wrote the document; the next 64 were tails until the rewrite held them
    // (a tail still on its way then is left for a later write of the document to delete).
    expect(stored().segments[0]!.operations.length).toBeGreaterThanOrEqual(65);
    expect(tails().length).toBeLessThan(10);
    expect((await read())!.segments[0]!.operations).toHaveLength(70);
  });

  it("removing the journal deletes its tails and those a killed removal left, the document's first", async () => {
    const { objects, journalStore, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const a = await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    await journal.begin({ logicalId: 'B', action: 'create', type: 'AWS::SQS::Queue' });
    // A writer whose removal was killed after its document went, before its tails did.
    await journalStore.writeTail(ref, {
      version: 1,
      writer: 'gone',
      generation: 3,
      runId: 'old',
      operations: [a],
    }).written;
    journal.document.segments.length = 0;
    await journal.persist();
    expect(await read()).toBeUndefined();
    expect(objects.keysUnder('cdkd/Journaled/')).toEqual([]);
  });
});

describe('a process killed before a create mark is stored', () => {
  it('leaves what a rollback settles to exactly the mark it would have written', async () => {
    const { journalStore, read } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    await journal.begin({ logicalId: 'First', action: 'create', type: 'AWS::SQS::Queue' });
    const op = await journal.begin({
      logicalId: 'A',
      action: 'create',
      type: 'AWS::SQS::Queue',
      attempted: { DelaySeconds: 5 },
      idempotencyToken: 'tok',
    });
    // The executor stores the record in state first, then marks the operation completed.
    const state: StateDocument = emptyStateDocument(ref.stackName, ref.region);
    state.resources.First = record('first');
    state.resources.A = record('a');
    journal.complete(op, { physicalId: 'a', after: record('a') });

    const killed = (await read())!.segments[0]!;
    const entry = killed.operations.find((candidate) => candidate.logicalId === 'A')!;
    expect(entry.status).toBe('in-flight');
    await reconcileInFlight(killed, state, async () => {
      throw new Error('a create whose record reached state is never looked for');
    });
    expect(entry).toEqual(JSON.parse(JSON.stringify(op)));
  });
});
