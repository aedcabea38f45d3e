import type { JournalOperation, JournalSegment } from '../state/documents/journal-document.js';
import type { ResourceRecord, StateDocument } from '../state/documents/state-document.js';
import { keepsResource } from '../template/index.js';

/** What a provider can say about an in-flight create: its resource's id, none made, or no way to tell. */
export type Located = { physicalId: string; provisionedBy: 'sdk' | 'cc-api' } | 'none' | 'unknown';

/**
 * Settles the operations a killed process left in flight by reading the cloud,
 * never by guessing: a create whose record reached state completed; otherwise
 * the provider looks for what a create with the journaled token made. An
 * in-flight update or delete is settled as completed: reverting an update that
 * never applied sends the properties the resource already has.
 */
/**
 * The record an in-flight create or replacement left in state, which proves it completed: one
 * under its logical id that is not the resource it started from.
 */
export function recordItMade(op: JournalOperation, state: StateDocument): ResourceRecord | undefined {
  const record = state.resources[op.logicalId];
  return record && record.physicalId !== op.before?.physicalId ? record : undefined;
}

export async function reconcileInFlight(
  segment: JournalSegment,
  state: StateDocument,
  locate: (op: JournalOperation) => Promise<Located>,
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
    const made = recordItMade(op, state);
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
        properties: op.attempted ?? {},
      },
    });
  }
}
