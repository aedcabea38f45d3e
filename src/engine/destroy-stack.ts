import { randomUUID } from 'node:crypto';
import { gatherMadeFacts } from './made-facts.js';
import { CdkdError, messageOf } from '../errors.js';
import { buildPlan } from '../plan/index.js';
import { FAIL_FAST_SCHEDULE } from '../state/lock-schedule.js';
import { walkDag } from './dag-walk.js';
import type { EngineContext, StackIdentity } from './engine-context.js';
import { ResourceExecutor } from './resource-executor.js';
import { StackState } from './stack-state.js';
import { nestedStacksOf } from './nested-stack-provider.js';
import { replayServices } from './rollback-stack.js';
import { journalNote, settleMadeResources } from './journal-lifetime.js';
import type { DeployOptions } from './stack-request.js';
import { generationOf } from './deploy-outcome.js';
import { RunJournal } from './run-journal.js';
import { settleStaleRecords } from './stale-records.js';
import { isUnreadableJournal, setJournalAside } from '../state/journal-set-aside.js';
import { unreadableWarning } from './unreadable-journal.js';

export interface StackDestroyResult {
  found: boolean;
  deleted: string[];
  /** Resources left in AWS under DeletionPolicy Retain / Snapshot, now untracked. */
  retained: string[];
}

/**
 * Deletes every resource a stack's state records, dependents first, then the
 * state itself. Refused before anything is touched while another stack still
 * imports one of its exports. Fails fast on a held lock (spec 003).
 */
export async function destroyStack(
  engine: EngineContext,
  stack: StackIdentity,
  options: { concurrency: number; signal?: AbortSignal; removeProtection?: boolean },
): Promise<StackDestroyResult> {
  const ref = { stackName: stack.stateName, region: stack.region };
  const lock = await engine.backend.locks.acquire(ref, {
    operation: 'destroy',
    schedule: FAIL_FAST_SCHEDULE,
  });
  try {
    const state = await StackState.open(engine.backend.store, ref);
    await settleStaleRecords(engine, stack, state, { persist: true });
    if (state.isNew) {
      // A new stack rolled back leaves no state, but its journal may still name what failed creates made.
      const warnings = await settleJournalBeforeDestroy(engine, stack, state, options);
      for (const warning of warnings)
        engine.events({ kind: 'warning', stack: stack.stackName, message: warning });
      await engine.backend.journals.remove(ref);
      const children = await destroyUnrecordedChildren(engine, stack, options);
      return { found: children > 0, deleted: [], retained: [] };
    }
    refuseWhileImported(engine, state);

    const retained: string[] = [];
    const deleted: string[] = [];
    engine.events({ kind: 'stack', stack: stack.stackName, status: 'started' });
    const journalWarnings = await settleJournalBeforeDestroy(engine, stack, state, options);
    for (const warning of journalWarnings)
      engine.events({ kind: 'warning', stack: stack.stackName, message: warning });
    const journal = await destroyJournal(engine, state);
    const executor = new ResourceExecutor({
      ...replayServices(engine, { stack, state, options }),
      ...(options.removeProtection ? { removeProtection: true } : {}),
      events: (event) => {
        if (event.kind === 'resource' && event.status === 'succeeded') {
          (event.action === 'retain' ? retained : deleted).push(event.logicalId);
        }
        engine.events(event);
      },
      ...(journal ? { journal } : {}),
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
          hint: `The state still records the ${Object.keys(state.document.resources).length} resources left; fix the cause and run cdkd destroy again.`,
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
    return { found: true, deleted, retained };
  } finally {
    await lock.release();
  }
}

/**
 * The destroy's own segment of the journal: each delete is recorded before it is sent, so a
 * killed destroy leaves what it sent for the next command to settle (stale-records.ts). A
 * journal that cannot be read (already warned about) is left as it is and nothing is journaled.
 */
async function destroyJournal(engine: EngineContext, state: StackState): Promise<RunJournal | undefined> {
  try {
    return await RunJournal.open(engine.backend.journals, state.ref, {
      runId: randomUUID(),
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
  options: { concurrency: number; signal?: AbortSignal; removeProtection?: boolean },
): Promise<number> {
  const children = await nestedStacksOf(engine, parent);
  for (const child of children) await destroyStack(engine, child, options);
  return children.length;
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
  options: DeployOptions,
): Promise<string[]> {
  let journal: Awaited<ReturnType<typeof engine.backend.journals.read>>;
  try {
    journal = await engine.backend.journals.read(state.ref);
  } catch (error) {
    if (isUnreadableJournal(error)) {
      const where = await setJournalAside(engine.backend.objects, engine.backend.journals.prefix, state.ref);
      return [unreadableWarning(state.ref, where, error)];
    }
    return [
      `The rollback journal cannot be read and is removed with the state; nothing it records is deleted: ${messageOf(error)}`,
    ];
  }
  if (!journal) return [];
  const services = replayServices(engine, { stack, state, options });
  const gathered = await gatherMadeFacts(engine, {
    ref: state.ref,
    segments: journal.document.segments,
    state: state.document,
    path: 'destroy',
    services,
  });
  const settled = await settleMadeResources({
    journal: journal.document,
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
        hint: 'The state and the rollback journal are kept; fix the cause and run cdkd destroy again.',
      },
    );
  }
  return settled.warnings;
}

function refuseWhileImported(engine: EngineContext, state: StackState): void {
  const exportNames = Object.values(state.document.outputs).flatMap((output) => output.exportName ?? []);
  const inUse = engine.exportsIn(state.ref.region).stillImported(state.document.stackName, exportNames);
  if (inUse.length === 0) return;
  throw new CdkdError(
    'EXPORT_IN_USE',
    `Stack ${state.document.stackName} cannot be destroyed: other stacks import its exports: ${inUse.join('; ')}.`,
    { hint: 'Destroy (or stop importing from) those stacks first.' },
  );
}
