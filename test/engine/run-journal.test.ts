import { describe, expect, it } from 'vitest';
import { RunJournal } from '../../src/engine/run-journal.js';
import { reconcileInFlight } from '../../src/rollback/reconcile.js';
import type { JournalDocument } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord, StateDocument } from '../../src/state/documents/state-document.js';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import type { JournalStore } from '../../src/state/journal-store.js';

const ref = { stackName: 'Journaled', region: 'us-east-1' };
const run = { runId: 'run-1', flags: {}, previous: { parameters: {}, tags: {}, outputs: {}, imports: [] } };

/** A journal store whose writes are kept as parsed documents, and can be made to fail. */
function store() {
  const written: JournalDocument[] = [];
  let failures = 0;
  const journalStore = {
    read: async () => undefined,
    writer:
      (_ref: unknown, serialize: (document: JournalDocument) => string) =>
      async (document: JournalDocument) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('write refused');
        }
        written.push(JSON.parse(serialize(document)) as JournalDocument);
        return `"etag-${written.length}"`;
      },
    remove: async () => {},
  } as unknown as JournalStore;
  return { journalStore, written, failNext: (count: number) => (failures = count) };
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
  it('a create: no write of its own; the next write (a dependent begun) carries the mark', async () => {
    const { journalStore, written } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const first = await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    expect(written).toHaveLength(1);

    journal.complete(first, { physicalId: 'a', after: record('a') });
    await journal.flush();
    expect(written).toHaveLength(1);

    await journal.begin({ logicalId: 'B', action: 'create', type: 'AWS::SQS::Queue' });
    expect(written).toHaveLength(2);
    expect(statusesIn(written.at(-1))).toEqual(['A:completed', 'B:in-flight']);
    expect(written.at(-1)!.segments[0]!.operations[0]!.after).toEqual(record('a'));
  });

  it('a delete: no write of its own, written with the run status', async () => {
    const { journalStore, written } = store();
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
    expect(written).toHaveLength(1);
    await journal.setStatus('succeeded');
    expect(statusesIn(written.at(-1))).toEqual(['A:completed']);
  });

  it("an update's verdict, which state cannot tell, is written at once", async () => {
    const { journalStore, written } = store();
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
    expect(written).toHaveLength(2);
    expect(written.at(-1)!.segments[0]!.operations[0]).toMatchObject({
      status: 'completed',
      verdict: { replacement: false },
    });
  });

  it('a mark whose write failed is written again by flush, which throws when that fails too', async () => {
    const { journalStore, written, failNext } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const op = await journal.begin({ logicalId: 'A', action: 'update', type: 'AWS::SQS::Queue' });
    failNext(1);
    journal.complete(op, { after: record('a'), verdict: { replacement: false } });
    await journal.flush();
    expect(statusesIn(written.at(-1))).toEqual(['A:completed']);

    const second = await journal.begin({ logicalId: 'B', action: 'update', type: 'AWS::SQS::Queue' });
    failNext(2);
    journal.complete(second, { after: record('b'), verdict: { replacement: false } });
    await expect(journal.flush()).rejects.toThrow('write refused');
    expect(statusesIn(written.at(-1))).toEqual(['A:completed', 'B:in-flight']);
  });
});

describe('a process killed before a create mark is stored', () => {
  it('leaves what a rollback settles to exactly the mark it would have written', async () => {
    const { journalStore, written } = store();
    const journal = await RunJournal.open(journalStore, ref, run);
    const op = await journal.begin({
      logicalId: 'A',
      action: 'create',
      type: 'AWS::SQS::Queue',
      attempted: { DelaySeconds: 5 },
      idempotencyToken: 'tok',
    });
    // The executor stores the record in state first, then marks the operation completed.
    const state: StateDocument = emptyStateDocument(ref.stackName, ref.region);
    state.resources.A = record('a');
    journal.complete(op, { physicalId: 'a', after: record('a') });

    const killed = written.at(-1)!.segments[0]!;
    expect(killed.operations[0]!.status).toBe('in-flight');
    await reconcileInFlight(killed, state, async () => {
      throw new Error('a create whose record reached state is never looked for');
    });
    expect(killed.operations[0]).toEqual(JSON.parse(JSON.stringify(op)));
  });
});
