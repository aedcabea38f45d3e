import type { PlannedOperation } from '../../plan/index.js';
import type { JournalOperation } from '../../state/index.js';

/** One mutation as the executor describes it before sending it: a journal entry without its seq and status. */
export type OperationDraft = Omit<JournalOperation, 'seq' | 'status'>;

/** How an observed mutation ended. */
export type OperationOutcome =
  /** Applied: what it made or changed (physical id, record after, the provider's verdicts). */
  | { status: 'completed'; facts: Partial<OperationDraft> }
  /** Failed: the error, and what a failed create proved it made. */
  | { status: 'failed'; facts: Partial<OperationDraft> }
  /** Refused before anything was applied: nothing for a rollback to reconcile. */
  | { status: 'unapplied' };

/** What an operation in flight learns before its outcome. */
export type InFlightFact =
  /** The request token a create was accepted as (see ResourceRequest.onAccepted). */
  | { acceptedRequest: string }
  /** A delete-first replacement deleted the old copy. */
  | { oldDeleted: true };

/**
 * Watches the executor's mutations; the write-ahead run journal is one. `before` is awaited
 * before the call is sent, so what it records survives a process killed mid-call; `after`
 * hears how it ended. A call sent whose answer never came (OutcomeUnknownError) gets no
 * `after`: its record stays in flight for `cdkd rollback` to settle.
 */
export interface OperationObserver<Observed = unknown> {
  before(draft: OperationDraft): Promise<Observed>;
  /** What the operation learned in flight, before its outcome. */
  during(observed: Observed, fact: InFlightFact): Promise<void>;
  after(observed: Observed, outcome: OperationOutcome): Promise<void>;
}

/** The policies a drafted operation carries. */
export function policies(
  op: Pick<PlannedOperation, 'deletionPolicy' | 'updateReplacePolicy'>,
): Pick<OperationDraft, 'deletionPolicy' | 'updateReplacePolicy'> {
  return {
    ...(op.deletionPolicy ? { deletionPolicy: op.deletionPolicy } : {}),
    ...(op.updateReplacePolicy ? { updateReplacePolicy: op.updateReplacePolicy } : {}),
  };
}
