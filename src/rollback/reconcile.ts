import type { CreationIdentity } from '../providers/index.js';
import type { JournalOperation, JournalSegment, ResourceRecord, StateDocument } from '../state/index.js';
import { keepsResource } from '../template/index.js';

/**
 * What a provider can say about an in-flight create: its resource's id (with the identity a
 * read gave it then, where one did), none made, or no way to tell.
 */
export type Located =
  | { physicalId: string; provisionedBy: 'sdk' | 'cc-api'; creationIdentity?: CreationIdentity }
  | 'none'
  | 'unknown';

/**
 * The record an in-flight create or replacement left in state, which proves it completed: one
 * under its logical id that is not the resource it started from.
 */
export function recordItMade(op: JournalOperation, state: StateDocument): ResourceRecord | undefined {
  const record = state.resources[op.logicalId];
  return record && record.physicalId !== op.before?.physicalId ? record : undefined;
}

export interface ReconcileOptions {
  /** Whether state's record under the operation's logical id may settle it; every record by default. */
  trustsRecord?(op: JournalOperation): boolean;
}

/** A create or replacement a killed process left in flight, which only reading the cloud settles. */
export function makesInFlight(op: JournalOperation): boolean {
  return op.status === 'in-flight' && (op.action === 'create' || op.action === 'replace');
}

/**
 * Settles the operations a killed process left in flight by reading the cloud,
 * never by guessing: a create whose record reached state completed; otherwise
 * the provider looks for what a create with the journaled token made. An
 * in-flight update or delete is settled as completed: reverting an update that
 * never applied sends the properties the resource already has. A create nothing
 * can settle stays in flight, and its entry stays in the journal.
 *
 * `trustsRecord` is for a state a later run has changed since (a successful deploy's end): a
 * record under a logical id that run created again is that run's, so only `locate` decides.
 */
export async function reconcileInFlight(
  segment: JournalSegment,
  state: StateDocument,
  locate: (op: JournalOperation) => Promise<Located>,
  options: ReconcileOptions = {},
): Promise<void> {
  for (const op of segment.operations) {
    if (op.status !== 'in-flight') continue;
    const record = state.resources[op.logicalId];
    if (op.action === 'update' || op.action === 'delete') {
      Object.assign(op, { status: 'completed' }, record && op.action === 'update' ? { after: record } : {});
      continue;
    }
    if (op.action === 'replace' && op.verdict?.order === 'delete-first' && !record) {
      // The old copy goes before the new one is made, and its record with it: state without
      // one saw it deleted, or a live read found it gone (stale-records.ts).
      op.verdict = { ...op.verdict, oldDeleted: true };
    }
    const made = (options.trustsRecord?.(op) ?? true) ? recordItMade(op, state) : undefined;
    if (made) {
      Object.assign(op, {
        status: 'completed',
        physicalId: made.physicalId,
        after: made,
        ...(op.action === 'replace'
          ? {
              verdict: {
                replacement: true,
                order: 'create-first',
                oldRetained: keepsResource(op.updateReplacePolicy),
              },
            }
          : {}),
      });
      continue;
    }
    const located = await locate(op);
    if (located === 'unknown') continue;
    if (located === 'none') {
      Object.assign(op, { status: 'failed', error: 'in flight when the deploy stopped; nothing was made' });
      continue;
    }
    Object.assign(op, {
      status: 'failed',
      error: 'in flight when the deploy stopped; the create had made its resource',
      physicalId: located.physicalId,
      made: {
        physicalId: located.physicalId,
        provisionedBy: located.provisionedBy,
        ...(located.creationIdentity ? { creationIdentity: located.creationIdentity } : {}),
        properties: op.attempted ?? {},
      },
    });
  }
}
