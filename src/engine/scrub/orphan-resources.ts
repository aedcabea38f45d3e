import { CdkdError } from '../../errors.js';
import { throwIfInterrupted } from '../../interrupted.js';
import { FAIL_FAST_SCHEDULE, type LockSchedule } from '../../state/lock-schedule.js';
import type { StateBackend, StackRef } from '../../state/index.js';
import { stackNotInState } from '../../state/state-bucket-errors.js';
import { journaledIds, orphanReaders } from './orphan-rules.js';
import { StackState } from '../../stack-state/index.js';

export interface OrphanRequest {
  ref: StackRef;
  logicalIds: readonly string[];
  /** Orphan even while another resource in state still references one of them. */
  force: boolean;
  /** From the app: the template's resources that read each one (`cdkd orphan`); absent for `state orphan`. */
  templateReaders?: ReadonlyMap<string, readonly string[]>;
  /** `cdkd orphan` fails fast on the lock (spec 003); `state orphan` retries it. */
  schedule?: LockSchedule;
  /** The first SIGINT/SIGTERM: nothing is written after it. */
  signal?: AbortSignal;
}

export interface OrphanResult {
  orphaned: Array<{ logicalId: string; type: string; physicalId: string }>;
  /** Readers left in state that --force let through: they still reference what cdkd no longer tracks. */
  forcedPast: Array<{ logicalId: string; readers: string[] }>;
}

/**
 * Stops managing resources without touching them in AWS: their records leave the stack's
 * state and nothing is sent to any service. Refused (nothing written) for an id state does
 * not record, one the rollback journal still acts on, and, without --force, one another
 * resource in state still references.
 */
export async function orphanResources(backend: StateBackend, request: OrphanRequest): Promise<OrphanResult> {
  const { ref, signal } = request;
  const lock = {
    operation: 'orphan',
    schedule: request.schedule ?? FAIL_FAST_SCHEDULE,
    ...(signal ? { signal } : {}),
  };
  return backend.locks.withLock(ref, lock, async () => {
    const state = await StackState.open(backend.store, ref);
    if (state.isNew) {
      throw stackNotInState(ref);
    }
    const unknown = request.logicalIds.filter((id) => !state.record(id));
    if (unknown.length > 0) {
      throw new CdkdError(
        'ORPHAN_UNKNOWN_RESOURCE',
        `Stack ${ref.stackName} records no resource ${unknown.join(', ')}.`,
        { hint: `Run cdkd state show ${ref.stackName} to see its logical ids.` },
      );
    }
    const journal = await backend.journals.read(ref);
    const journaled = journaledIds(journal?.document, request.logicalIds);
    if (journaled.length > 0) {
      throw new CdkdError(
        'ORPHAN_JOURNALED',
        `The rollback journal of stack ${ref.stackName} still holds operations on ${journaled.join(', ')}: a rollback would act on them once untracked.`,
        { hint: `Run cdkd rollback ${ref.stackName} (or a successful cdkd deploy) first, then orphan.` },
      );
    }
    const readers = orphanReaders(state.document.resources, request.logicalIds, request.templateReaders);
    if (readers.length > 0 && !request.force) {
      const list = readers
        .map((entry) => `${entry.logicalId} (read by ${entry.readers.join(', ')})`)
        .join('; ');
      throw new CdkdError(
        'ORPHAN_REFERENCED',
        `Other resources of stack ${ref.stackName} still reference what would be orphaned: ${list}.`,
        { hint: 'Remove those references (or orphan the readers too), or pass --force to orphan anyway.' },
      );
    }
    throwIfInterrupted(signal, 'before state was changed; nothing was orphaned');
    const orphaned = request.logicalIds.map((logicalId) => {
      const record = state.record(logicalId)!;
      delete state.document.resources[logicalId];
      return { logicalId, type: record.type, physicalId: record.physicalId };
    });
    await state.save();
    await state.flush();
    return { orphaned, forcedPast: readers };
  });
}
