import { randomUUID } from 'node:crypto';
import { gatherMadeFacts } from '../journal/index.js';
import { CdkdError, messageOf } from '../../errors.js';
import { buildPlan } from '../../plan/index.js';
import { FAIL_FAST_SCHEDULE } from '../../state/lock-schedule.js';
import { walkDag } from '../../dag/index.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import { ResourceExecutor } from '../execute/index.js';
import { StackState } from '../../stack-state/index.js';
import { nestedStacksOf } from '../nested/index.js';
import { replayServices } from '../journal/index.js';
import { journalNote, settleMadeResources } from '../journal/index.js';
import { generationOf } from '../journal/index.js';
import { RunJournal } from '../journal/index.js';
import { settleStaleRecords } from '../journal/index.js';
import { reconcileSegments, unsettledInFlight } from '../journal/index.js';
import {
  journalWithoutOrphans,
  ORPHANED_REASON,
  recordOrphaned,
  type OrphanedResource,
} from './destroy-orphans.js';
import { isUnreadableJournal, setJournalAside } from '../../state/journal-set-aside.js';
import { unreadableWarning } from '../journal/index.js';

export interface StackDestroyResult {
  found: boolean;
  deleted: string[];
  /** Resources left in AWS under DeletionPolicy Retain / Snapshot, now untracked. */
  retained: string[];
  /** Resources --orphan left in AWS, now untracked. */
  orphaned: OrphanedResource[];
}

export interface DestroyOptions {
  concurrency: number;
  signal?: AbortSignal;
  removeProtection?: boolean;
  /** --orphan: logical ids left in AWS as they are and dropped from state and the journal. */
  orphan?: ReadonlySet<string>;
}

/**
 * Deletes every resource a stack's state records, dependents first, then the
 * state itself. Refused before anything is touched while another stack still
 * imports one of its exports. Fails fast on a held lock (spec 003). What --orphan
 * names is not deleted: it leaves state and the journal, named as left in AWS.
 */
export async function destroyStack(
  engine: EngineContext,
  stack: StackIdentity,
  options: DestroyOptions,
): Promise<StackDestroyResult> {
  const ref = { stackName: stack.stateName, region: stack.region };
  const lock = await engine.backend.locks.acquire(ref, {
    operation: 'destroy',
    schedule: FAIL_FAST_SCHEDULE,
  });
  try {
    const state = await StackState.open(engine.backend.store, ref);
    await settleStaleRecords(engine, stack, state, { persist: true });
    const runId = randomUUID();
    if (state.isNew) {
      // A new stack rolled back leaves no state, but its journal may still name what failed creates made.
      const settled = await settleJournalBeforeDestroy(engine, stack, state, options);
      for (const warning of settled.warnings)
        engine.events({ kind: 'warning', stack: stack.stackName, message: warning });
      await recordOrphaned(engine, ref, runId, settled.orphaned);
      await engine.backend.journals.remove(ref);
      const children = await destroyUnrecordedChildren(engine, stack, options);
      const found = children > 0 || settled.orphaned.length > 0;
      return { found, deleted: [], retained: [], orphaned: settled.orphaned };
    }
    await refuseWhileImported(engine, state);

    const retained: string[] = [];
    const deleted: string[] = [];
    engine.events({ kind: 'stack', stack: stack.stackName, status: 'started' });
    const settled = await settleJournalBeforeDestroy(engine, stack, state, options);
    for (const warning of settled.warnings)
      engine.events({ kind: 'warning', stack: stack.stackName, message: warning });
    const orphaned = [...settled.orphaned, ...(await orphanRecords(engine, stack, state, options.orphan))];
    await recordOrphaned(engine, ref, runId, orphaned);
    const journal = await destroyJournal(engine, state, runId);
    const executor = new ResourceExecutor({
      ...replayServices(engine, { stack, state, options }),
      ...(options.removeProtection ? { removeProtection: true } : {}),
      events: (event) => {
        if (event.kind === 'resource' && event.status === 'succeeded') {
          (event.action === 'retain' ? retained : deleted).push(event.logicalId);
        }
        engine.events(event);
      },
      ...(journal ? { observer: journal } : {}),
    });
    for (const pending of [...state.document.pendingDeletes]) {
      await executor.deleteJournaled(pending.logicalId, pending.record, () =>
        state.removePendingDelete(pending.record.physicalId, pending.record.type),
      );
    }
    const { operations } = buildPlan(
      { desired: [], recorded: state.document.resources },
      { canHandle: () => true, providerCanUpdate: () => true },
    );
    const byId = new Map(operations.map((op) => [op.logicalId, op]));
    const outcome = await walkDag(
      operations.map((op) => ({ id: op.logicalId, dependsOn: op.dependsOn })),
      (id) => executor.run(byId.get(id)!),
      {
        concurrency: options.concurrency,
        priority: () => 0,
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    await state.flush();
    if (outcome.failed.length > 0 || outcome.notStarted.length > 0) {
      await journal?.setStatus(outcome.failed.length > 0 ? 'failed' : 'interrupted');
      await journal?.flush();
      const failures = outcome.failed.map((failure) => messageOf(failure.error)).join('; ');
      engine.events({ kind: 'stack', stack: stack.stackName, status: 'failed', message: failures });
      throw new CdkdError(
        'DESTROY_FAILED',
        `Destroy of ${stack.stackName} ${failures ? `failed: ${failures}` : 'was interrupted'}`,
        {
          hint: `The state still records the ${Object.keys(state.document.resources).length} resources left; fix the cause and run cdkd destroy again.${orphanAdvice(outcome.failed.map((failure) => failure.id))}`,
          cause: outcome.failed[0]?.error,
        },
      );
    }
    await destroyUnrecordedChildren(engine, stack, options);
    await engine.backend.store.remove(ref);
    await journal?.flush();
    await engine.backend.journals.remove(ref);
    engine.exportsIn(stack.region).forget(stack.stateName);
    engine.events({ kind: 'stack', stack: stack.stackName, status: 'succeeded' });
    return { found: true, deleted, retained, orphaned };
  } catch (error) {
    throw await lock.releaseAfter(error);
  } finally {
    await lock.release();
  }
}

/**
 * The destroy's own segment of the journal: each delete is recorded before it is sent, so a
 * killed destroy leaves what it sent for the next command to settle (stale-records.ts). A
 * journal that cannot be read (already warned about) is left as it is and nothing is journaled.
 */
async function destroyJournal(
  engine: EngineContext,
  state: StackState,
  runId: string,
): Promise<RunJournal | undefined> {
  try {
    return await RunJournal.open(engine.backend.journals, state.ref, {
      runId,
      flags: {},
      previous: generationOf(state.document),
      command: 'destroy',
    });
  } catch {
    return undefined;
  }
}

/**
 * A nested stack whose create failed partway has state of its own but no record in its
 * parent: found by its state key, it is destroyed with the parent rather than left behind.
 */
async function destroyUnrecordedChildren(
  engine: EngineContext,
  parent: StackIdentity,
  options: DestroyOptions,
): Promise<number> {
  const children = await nestedStacksOf(engine, parent);
  // --orphan names the parent's resources, not its children's.
  const childOptions = { ...options };
  delete childOptions.orphan;
  for (const child of children) await destroyStack(engine, child, childOptions);
  return children.length;
}

/**
 * Drops the records --orphan names from state without a call to AWS, and from what a
 * pending delete would still delete; returns what they named.
 */
async function orphanRecords(
  engine: EngineContext,
  stack: StackIdentity,
  state: StackState,
  orphan: ReadonlySet<string> | undefined,
): Promise<OrphanedResource[]> {
  if (!orphan || orphan.size === 0) return [];
  const orphaned: OrphanedResource[] = [];
  const left = (
    logicalId: string,
    record: { type: string; physicalId: string; provisionedBy?: 'sdk' | 'cc-api' },
  ) => {
    orphaned.push({
      logicalId,
      type: record.type,
      physicalId: record.physicalId,
      ...(record.provisionedBy ? { managedBy: record.provisionedBy } : {}),
    });
    engine.events({
      kind: 'resource',
      stack: stack.stackName,
      logicalId,
      type: record.type,
      action: 'retain',
      status: 'succeeded',
      physicalId: record.physicalId,
      message: ORPHANED_REASON,
    });
  };
  for (const pending of [...state.document.pendingDeletes]) {
    if (!orphan.has(pending.logicalId)) continue;
    left(pending.logicalId, pending.record);
    await state.removePendingDelete(pending.record.physicalId, pending.record.type);
  }
  for (const [logicalId, record] of Object.entries(state.document.resources)) {
    if (!orphan.has(logicalId)) continue;
    left(logicalId, record);
    await state.removeRecord(logicalId);
  }
  await state.flush();
  return orphaned;
}

/** The way out for resources a destroy cannot delete, named. */
function orphanAdvice(logicalIds: readonly string[]): string {
  if (logicalIds.length === 0) return '';
  const flags = logicalIds.map((id) => `--orphan ${id}`).join(' ');
  return ` If ${logicalIds.join(', ')} cannot be deleted (a handler that fails its Delete), leave ${logicalIds.length === 1 ? 'it' : 'them'} in AWS and stop tracking ${logicalIds.length === 1 ? 'it' : 'them'}: cdkd destroy ${flags}`;
}

/**
 * Spec 000, "cdkd destroy": what failed creates made, which only the journal
 * records, is deleted first (per DeletionPolicy); the journal goes with the
 * state. A journal destroy cannot read is warned about and nothing it records is deleted.
 */
async function settleJournalBeforeDestroy(
  engine: EngineContext,
  stack: StackIdentity,
  state: StackState,
  options: DestroyOptions,
): Promise<{ warnings: string[]; orphaned: OrphanedResource[] }> {
  let journal: Awaited<ReturnType<typeof engine.backend.journals.read>>;
  try {
    journal = await engine.backend.journals.read(state.ref);
  } catch (error) {
    if (isUnreadableJournal(error)) {
      const where = await setJournalAside(engine.backend.objects, engine.backend.journals.prefix, state.ref);
      return { warnings: [unreadableWarning(state.ref, where, error)], orphaned: [] };
    }
    const warning = `The rollback journal cannot be read and is removed with the state; nothing it records is deleted: ${messageOf(error)}`;
    return { warnings: [warning], orphaned: [] };
  }
  if (!journal) return { warnings: [], orphaned: [] };
  // What --orphan names is left as it is: only the other entries are settled.
  const { document, orphaned } = journalWithoutOrphans(journal.document, options.orphan ?? new Set());
  const services = replayServices(engine, { stack, state, options });
  await reconcileSegments(journal.document.segments, state.document, services);
  const unsettled = unsettledInFlight(journal.document.segments);
  if (unsettled.length > 0) {
    const stackArg = stack.stateName.replaceAll('/', '~');
    throw new CdkdError(
      'DESTROY_FAILED',
      `Destroy of ${stack.stackName} cannot settle what an interrupted run left in flight: ${unsettled.map(({ line }) => line).join('; ')}. Nothing was deleted.`,
      {
        hint: `The state and the rollback journal are kept. Check ${unsettled.length === 1 ? 'that resource' : 'those resources'} by hand, then run cdkd rollback ${stackArg} (with --orphan <logicalId> to drop an entry whose resource you dealt with) and cdkd destroy again.`,
      },
    );
  }
  const gathered = await gatherMadeFacts(engine, {
    ref: state.ref,
    segments: document.segments,
    state: state.document,
    path: 'destroy',
    services,
  });
  const settled = await settleMadeResources({
    journal: document,
    state: state.document,
    services,
    path: 'destroy',
    gathered,
    note: journalNote(engine, stack),
  });
  if (settled.kept.length > 0) {
    throw new CdkdError(
      'DESTROY_FAILED',
      `Destroy of ${stack.stackName} could not delete what a failed create made: ${settled.warnings.join('; ')}`,
      {
        hint: `The state and the rollback journal are kept; fix the cause and run cdkd destroy again.${orphanAdvice([...new Set(settled.kept.map((op) => op.logicalId))])}`,
      },
    );
  }
  return { warnings: settled.warnings, orphaned };
}

async function refuseWhileImported(engine: EngineContext, state: StackState): Promise<void> {
  const exportNames = Object.values(state.document.outputs).flatMap((output) => output.exportName ?? []);
  const exports = engine.exportsIn(state.ref.region);
  const inUse = exports.stillImported(state.document.stackName, exportNames);
  // Only a stack with exports asks CloudFormation who imports them.
  for (const name of exportNames) {
    const importers = await exports.cloudFormationImporters(name);
    if (importers.length > 0)
      inUse.push(
        `${name} (imported by CloudFormation stack${importers.length > 1 ? 's' : ''} ${importers.join(', ')})`,
      );
  }
  if (inUse.length === 0) return;
  throw new CdkdError(
    'EXPORT_IN_USE',
    `Stack ${state.document.stackName} cannot be destroyed: other stacks import its exports: ${inUse.join('; ')}.`,
    { hint: 'Destroy (or stop importing from) those stacks first.' },
  );
}
