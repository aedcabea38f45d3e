import type { JournalDocument, JournalOperation, JournalTail } from './documents/journal-document.js';

/**
 * A journal's tails. Rewriting the whole journal for every operation a deploy begins costs a
 * write that grows with the stack, and each resource's call waits for it. So once a run has
 * stored the journal, it stores each later change to one of its operations as an object of
 * its own, `rollback-journal/{writer}/{generation}.json`, which many can write at once. A
 * reader takes the document, then applies the tails of the writer that stored it, newer than
 * the document's generation, newest last.
 *
 * Only that writer's tails count. Any other write of the document (another process, a
 * rollback, an import) names a new writer, so a tail an earlier, killed process had on the
 * wire and that lands late is never read: it described a call that process never sent,
 * since every tail is stored before the call it records.
 */

const GENERATION_DIGITS = 10;

export function tailKey(tailsPrefix: string, writer: string, generation: number): string {
  return `${tailsPrefix}${writer}/${String(generation).padStart(GENERATION_DIGITS, '0')}.json`;
}

/** The generation a tail's key names, or undefined for any other key. */
export function tailGenerationOf(key: string): number | undefined {
  const match = /\/(\d+)\.json$/.exec(key);
  return match ? Number(match[1]) : undefined;
}

/** Of the keys under a writer's folder, those a reader of a document at `generation` must apply. */
export function newerTailKeys(keys: readonly string[], generation: number | undefined): string[] {
  return keys.filter((key) => (tailGenerationOf(key) ?? 0) > (generation ?? 0));
}

/**
 * The document with its writer's newer tails applied: for each operation the newest tail's
 * record replaces the document's (or joins it, in seq order). A tail of another writer, one
 * no newer than the document, or one of a run the document no longer holds, is ignored.
 */
export function applyTails(document: JournalDocument, tails: readonly JournalTail[]): JournalDocument {
  const newestByRun = new Map<string, Map<number, { generation: number; operation: JournalOperation }>>();
  let generation = document.generation ?? 0;
  for (const tail of tails) {
    if (tail.writer !== document.writer || tail.generation <= (document.generation ?? 0)) continue;
    if (!document.segments.some((segment) => segment.runId === tail.runId)) continue;
    generation = Math.max(generation, tail.generation);
    const newest = newestByRun.get(tail.runId) ?? new Map();
    newestByRun.set(tail.runId, newest);
    for (const operation of tail.operations) {
      const held = newest.get(operation.seq);
      if (!held || held.generation < tail.generation)
        newest.set(operation.seq, { generation: tail.generation, operation });
    }
  }
  if (newestByRun.size === 0) return document;
  const segments = document.segments.map((segment) => {
    const newest = newestByRun.get(segment.runId);
    if (!newest) return segment;
    const bySeq = new Map<number, JournalOperation>(segment.operations.map((op) => [op.seq, op]));
    for (const { operation } of newest.values()) bySeq.set(operation.seq, operation);
    return { ...segment, operations: [...bySeq.values()].sort((a, b) => a.seq - b.seq) };
  });
  return { ...document, segments, generation };
}
