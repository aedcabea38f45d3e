import type { JournalDocument, JournalOperation, LockDocument, StateDocument } from '../../state/index.js';
import { isExpired } from '../../state/lock.js';
import { recordItMade } from '../../rollback/index.js';

/** What a lock file says about the run that wrote it. */
export type LockVerdict = 'stale' | 'held' | 'unreadable';

/** Spec 003: past expiresAt (or without one) is stale; a file that is not a lock is unreadable. */
export function lockVerdict(document: LockDocument | undefined, now: Date): LockVerdict {
  if (!document) return 'unreadable';
  return isExpired(document, now) ? 'stale' : 'held';
}

/**
 * What a journal names that no state records: an operation left in flight (it may have
 * made a resource nobody recorded; one whose record reached state did not), or a
 * resource it recorded (made or completed) whose physical id no state record holds.
 * Listed as `logicalId`, with the id where there is one.
 */
export function untrackedInJournal(journal: JournalDocument, state: StateDocument | undefined): string[] {
  const held = new Set([
    ...Object.values(state?.resources ?? {}).map((record) => record.physicalId),
    ...(state?.pendingDeletes ?? []).map((pending) => pending.record.physicalId),
  ]);
  const found = new Set<string>();
  for (const segment of journal.segments) {
    for (const op of segment.operations) {
      const makes = op.action === 'create' || op.action === 'replace';
      if (!makes) continue;
      const id = typeof op.made?.physicalId === 'string' ? op.made.physicalId : op.physicalId;
      if (op.status === 'in-flight') {
        // Its record in state means it completed: the journal writes that mark late (run-journal.ts).
        if (!(state && recordItMade(op, state))) found.add(`${op.logicalId} (${inFlight(op)})`);
      } else if (
        typeof id === 'string' &&
        id !== '' &&
        !held.has(id) &&
        (op.status === 'completed' || op.made)
      ) {
        found.add(`${op.logicalId} (${id})`);
      }
    }
  }
  return [...found].sort();
}

function inFlight(op: JournalOperation): string {
  return op.name !== undefined ? `in flight, ${op.name}` : 'in flight';
}

/**
 * The entries a journal still holds after a rollback settled what it could, one line each:
 * what `cdkd scrub` lists as left for a person.
 */
export function keptEntries(journal: JournalDocument): string[] {
  return journal.segments.flatMap((segment) =>
    segment.operations.map((op) => {
      const id = typeof op.made?.physicalId === 'string' ? op.made.physicalId : op.physicalId;
      const where = op.status === 'in-flight' ? inFlight(op) : `${op.status} ${op.action}`;
      return `${op.logicalId} (${op.type}, ${where}${typeof id === 'string' && id !== '' ? `, ${id}` : ''})`;
    }),
  );
}
