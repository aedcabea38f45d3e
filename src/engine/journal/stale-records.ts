import { messageOf } from '../../errors.js';
import { isAddressable } from '../../rollback-decisions/index.js';
import type { JournalOperation, JournalSegment, ResourceRecord, StateDocument } from '../../state/index.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import { heldUpdate } from './held-update.js';
import { NESTED_STACK_TYPE } from '../../resource-types/index.js';
import { replayCalls } from './replay-calls.js';
import { RunJournal } from './run-journal.js';
import type { StackState } from '../../stack-state/index.js';
import { writeOnlyOf } from '../planning/index.js';

export interface SuspectRecord {
  logicalId: string;
  record: ResourceRecord;
  /**
   * The record state holds is what a completed update applied, which a rollback may have
   * reverted in AWS before its save: the record that rollback would have written.
   */
  revertsTo?: ResourceRecord;
  /** The journaled delete's token: a custom resource's answer to that Delete is read under it. */
  deleteToken?: string;
}

/**
 * The state records a journal says may no longer match AWS: each one naming a resource that
 * an operation of an interrupted run, or the rollback of one, deletes (a create's or a
 * replacement's new copy, a replacement's old copy, a delete) or reverts (an update), and a
 * process killed between the call and its state save leaves as it was. Only these are read
 * from the cloud; every other unchanged resource stays a no-op with no call.
 */
export function suspectRecords(segments: readonly JournalSegment[], state: StateDocument): SuspectRecord[] {
  const suspects = new Map<string, SuspectRecord>();
  for (const segment of segments) {
    for (const op of segment.operations) {
      const record = state.resources[op.logicalId];
      if (!record || !namedBy(op, record)) continue;
      const earlier = suspects.get(op.logicalId);
      // Of several updates, only the newest one's record can be what state holds.
      const revertsTo = revertedRecord(op, record) ?? earlier?.revertsTo;
      const deleteToken = (op.action === 'delete' ? op.idempotencyToken : undefined) ?? earlier?.deleteToken;
      suspects.set(op.logicalId, {
        logicalId: op.logicalId,
        record,
        ...(revertsTo ? { revertsTo } : {}),
        ...(deleteToken !== undefined && { deleteToken }),
      });
    }
  }
  return [...suspects.values()];
}

/**
 * Whether `record` is a resource `op` or its rollback deletes or changes. A record cdkd cannot
 * address is never read: nothing is sent for it (spec 000, "An operation cdkd cannot address").
 */
function namedBy(op: JournalOperation, record: ResourceRecord): boolean {
  if (!isAddressable(record.physicalId)) return false;
  if (record.type === op.type && record.physicalId === op.physicalId) return true;
  // A replacement's old copy, which a delete-first order deletes before the new one is made.
  return (
    op.action === 'replace' &&
    record.type === (op.previousType ?? op.type) &&
    record.physicalId === op.previousPhysicalId
  );
}

/**
 * The pre-deploy record of a completed update whose record state still holds, which is what
 * its rollback reverts AWS to. A nested stack's update is reverted inside the nested stack,
 * whose own records say what it holds.
 */
function revertedRecord(op: JournalOperation, record: ResourceRecord): ResourceRecord | undefined {
  if (op.action !== 'update' || op.status !== 'completed' || !op.before || !op.after) return undefined;
  if (record.type === NESTED_STACK_TYPE || record.propertyHash !== op.after.propertyHash) return undefined;
  return op.before;
}

/** What a later command does with a stale record: a deploy or diff plans its create, a destroy skips it. */
export interface StaleSettlement {
  /** Logical ids whose resource a live read found gone; their records are dropped. */
  gone: string[];
  /** Logical ids whose update a live read found reverted; their records go back to the pre-deploy ones. */
  reverted: string[];
  /** Logical ids no read could settle; their records are kept and the journal still names them. */
  unsettled: string[];
}

/**
 * Reads the cloud for each suspect record (see `suspectRecords`): one whose resource is gone
 * is dropped, so a deploy re-creates it and a destroy does not count it; one whose update AWS
 * no longer holds goes back to the record its rollback reverted to, so a deploy applies the
 * template again instead of seeing no change. With `persist` (a command holding the lock) the
 * records are changed in stored state and, once nothing is left unsettled, the segments of
 * interrupted destroys leave the journal; without it (a diff or dry run) only the in-memory
 * state changes.
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
    return { gone: [], reverted: [], unsettled: [] };
  }
  const suspects = suspectRecords(journal.document.segments, state.document);
  const services = replayCalls(engine, { stack, state });
  const gone: string[] = [];
  const reverted = new Map<string, ResourceRecord>();
  const unsettled: string[] = [];
  await Promise.all(
    suspects.map(async ({ logicalId, record, revertsTo, deleteToken }) => {
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
        else if (revertsTo) {
          const writeOnly = await writeOnlyOf(engine, stack, services.router, provider, record.type);
          const held = heldUpdate(revertsTo.properties, record.properties, live.properties, writeOnly);
          if (held === 'reverted') reverted.set(logicalId, revertsTo);
        }
      } catch (error) {
        unsettled.push(logicalId);
        engine.events({
          kind: 'warning',
          stack: stack.stackName,
          message: `${logicalId} (${record.type}) ${record.physicalId}: an interrupted run or rollback may have deleted or changed it, and reading it failed (${messageOf(error)}); its record is kept.`,
        });
      }
    }),
  );
  const inPlan = options.persist ? '' : ' in this plan';
  for (const logicalId of gone.sort()) {
    const record = state.record(logicalId)!;
    engine.events({
      kind: 'warning',
      stack: stack.stackName,
      message: `${logicalId} (${record.type}) ${record.physicalId} is gone from AWS (an interrupted run or rollback deleted it); its record is dropped${inPlan}.`,
    });
    if (options.persist) await state.removeRecord(logicalId);
    else delete state.document.resources[logicalId];
  }
  for (const [logicalId, revertsTo] of [...reverted].sort(([a], [b]) => a.localeCompare(b))) {
    // As the rollback's revert records it: the pre-deploy record, on the layer that holds it now.
    const before = { ...revertsTo, provisionedBy: state.record(logicalId)!.provisionedBy };
    engine.events({
      kind: 'warning',
      stack: stack.stackName,
      message: `${logicalId} (${before.type}) ${before.physicalId} does not hold the update state records (an interrupted rollback reverted it); its record goes back to the one before that update${inPlan}.`,
    });
    if (options.persist) await state.setRecord(logicalId, before);
    else state.document.resources[logicalId] = before;
  }
  if (options.persist) {
    await state.flush();
    if (unsettled.length === 0) await dropDestroySegments(journal);
  }
  return { gone, reverted: [...reverted.keys()].sort(), unsettled: unsettled.sort() };
}

/** A destroy's segment only says which deletes were sent; once they are settled it is done. */
async function dropDestroySegments(journal: RunJournal): Promise<void> {
  const segments = journal.document.segments;
  const kept = segments.filter((segment) => segment.command !== 'destroy');
  if (kept.length === segments.length) return;
  journal.document.segments = kept;
  await journal.persist();
}
