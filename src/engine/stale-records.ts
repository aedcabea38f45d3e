import { messageOf } from '../errors.js';
import type { JournalSegment } from '../state/documents/journal-document.js';
import type { ResourceRecord, StateDocument } from '../state/documents/state-document.js';
import type { EngineContext, StackIdentity } from './engine-context.js';
import { replayServices } from './rollback-stack.js';
import { RunJournal } from './run-journal.js';
import type { StackState } from './stack-state.js';

export interface SuspectRecord {
  logicalId: string;
  record: ResourceRecord;
  /** The journaled delete's token: a custom resource's answer to that Delete is read under it. */
  deleteToken?: string;
}

/**
 * The state records the journal says may name a resource that is gone: a delete the
 * journal recorded (sent, then the process was killed before its state save, or the save
 * failed) whose very record state still holds. Only these are read from the cloud; every
 * other unchanged resource stays a no-op with no call.
 */
export function suspectRecords(segments: readonly JournalSegment[], state: StateDocument): SuspectRecord[] {
  const suspects = new Map<string, SuspectRecord>();
  for (const segment of segments) {
    for (const op of segment.operations) {
      if (op.action !== 'delete') continue;
      const record = state.resources[op.logicalId];
      if (!record || record.type !== op.type || record.physicalId !== op.physicalId) continue;
      const deleteToken = op.idempotencyToken;
      suspects.set(op.logicalId, {
        logicalId: op.logicalId,
        record,
        ...(deleteToken !== undefined && { deleteToken }),
      });
    }
  }
  return [...suspects.values()];
}

/** What a later command does with a stale record: a deploy or diff plans its create, a destroy skips it. */
export interface StaleSettlement {
  /** Logical ids whose resource a live read found gone; their records are dropped. */
  gone: string[];
  /** Logical ids no read could settle; their records are kept and the journal still names them. */
  unsettled: string[];
}

/**
 * Reads the cloud for each suspect record (see `suspectRecords`) and drops the ones whose
 * resource is gone, so a deploy re-creates it and a destroy does not count it. With
 * `persist` (a command holding the lock) the records are removed from stored state and,
 * once nothing is left unsettled, the segments of interrupted destroys leave the journal;
 * without it (a diff or dry run) only the in-memory state changes.
 */
export async function settleStaleRecords(
  engine: EngineContext,
  stack: StackIdentity,
  state: StackState,
  options: { persist: boolean },
): Promise<StaleSettlement> {
  let journal: RunJournal;
  try {
    journal = await RunJournal.open(engine.backend.journals, state.ref);
  } catch {
    // An unreadable journal is reported by the path that acts on it.
    return { gone: [], unsettled: [] };
  }
  const suspects = suspectRecords(journal.document.segments, state.document);
  const services = replayServices(engine, { stack, state });
  const gone: string[] = [];
  const unsettled: string[] = [];
  await Promise.all(
    suspects.map(async ({ logicalId, record, deleteToken }) => {
      const provider = await services.router.providerFor(record.type, record.provisionedBy);
      try {
        const live = await engine.retry(logicalId, () =>
          provider.read(
            {
              logicalId,
              type: record.type,
              physicalId: record.physicalId,
              properties: record.properties,
              ...(deleteToken !== undefined && { idempotencyToken: deleteToken }),
            },
            services.context,
          ),
        );
        if (live === undefined) gone.push(logicalId);
      } catch (error) {
        unsettled.push(logicalId);
        engine.events({
          kind: 'warning',
          stack: stack.stackName,
          message: `${logicalId} (${record.type}) ${record.physicalId}: an interrupted delete may have removed it, and reading it failed (${messageOf(error)}); its record is kept.`,
        });
      }
    }),
  );
  for (const logicalId of gone.sort()) {
    const record = state.record(logicalId)!;
    engine.events({
      kind: 'warning',
      stack: stack.stackName,
      message: `${logicalId} (${record.type}) ${record.physicalId} is gone from AWS (an interrupted delete removed it); its record is dropped${options.persist ? '' : ' in this plan'}.`,
    });
    if (options.persist) await state.removeRecord(logicalId);
    else delete state.document.resources[logicalId];
  }
  if (options.persist) {
    await state.flush();
    if (unsettled.length === 0) await dropDestroySegments(journal);
  }
  return { gone, unsettled: unsettled.sort() };
}

/** A destroy's segment only says which deletes were sent; once they are settled it is done. */
async function dropDestroySegments(journal: RunJournal): Promise<void> {
  const segments = journal.document.segments;
  const kept = segments.filter((segment) => segment.command !== 'destroy');
  if (kept.length === segments.length) return;
  journal.document.segments = kept;
  await journal.persist();
}
