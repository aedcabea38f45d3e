import type { MovingExport } from '../../plan/index.js';
import { RETRY_SCHEDULE } from '../../state/lock-schedule.js';
import type { CrossStack } from '../stack-request.js';
import type { EngineContext } from '../engine-context.js';
import { ResourceExecutor } from '../execute/index.js';
import { replayServices } from '../journal/index.js';
import type { DeployOptions, StackRequest } from '../stack-request.js';
import { StackState } from '../../stack-state/index.js';

/**
 * The old copies (by physical id) a deploy's cleanup must keep: a recreated target's, while a
 * stack importing an export that reads it has not deployed after it, and any an earlier run
 * held. Each is marked in state with the stacks it waits for. Those stacks all deploying later
 * in this run, the copy is registered for release once they have; otherwise it stays, with a
 * warning naming the command that frees it.
 */
export async function holdOldCopies(
  engine: Pick<EngineContext, 'events'>,
  request: StackRequest,
  state: StackState,
  moving: readonly MovingExport[],
  run: CrossStack | undefined,
): Promise<Set<string>> {
  const importersOf = new Map<string, Set<string>>();
  for (const entry of moving) {
    for (const target of entry.targets) {
      const importers = importersOf.get(target) ?? new Set<string>();
      for (const importer of entry.importers) importers.add(importer);
      importersOf.set(target, importers);
    }
  }
  const stack = state.document.stackName;
  const held = new Set<string>();
  const waitFor = new Set<string>();
  for (const pending of state.document.pendingDeletes) {
    const heldFor = [...new Set([...(pending.heldFor ?? []), ...(importersOf.get(pending.logicalId) ?? [])])];
    if (heldFor.length === 0) continue;
    pending.heldFor = heldFor.sort();
    held.add(pending.record.physicalId);
    if (run && heldFor.every((importer) => run.deploysAfter(importer, stack))) {
      for (const importer of heldFor) waitFor.add(importer);
      continue;
    }
    engine.events({
      kind: 'warning',
      stack: request.stackName,
      message: `${pending.logicalId}: the old ${pending.record.type} ${pending.record.physicalId} is kept while ${pending.heldFor.join(', ')} may read it through an export; cdkd deploy ${[stack, ...pending.heldFor].join(' ')} deletes it once they have deployed.`,
    });
  }
  if (held.size > 0) await state.save();
  if (run && waitFor.size > 0) run.hold(request, waitFor);
  return held;
}

/**
 * After the stacks a held copy waited for deployed: deletes the exporter's old copies held for
 * them alone, under the exporter's lock. The hold is cleared before each delete, so a failed
 * delete leaves an ordinary pending delete that the exporter's next deploy retries.
 */
export async function releaseHeldCopies(
  engine: EngineContext,
  request: StackRequest,
  deployed: ReadonlySet<string>,
  options: DeployOptions,
): Promise<void> {
  const ref = { stackName: request.stateName, region: request.region };
  const lock = await engine.backend.locks.acquire(ref, {
    operation: 'deploy',
    schedule: RETRY_SCHEDULE,
    onLost: (message) => engine.events({ kind: 'warning', stack: request.stackName, message }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const state = await StackState.open(engine.backend.store, ref);
    const executor = new ResourceExecutor({
      ...replayServices(engine, { stack: request, state, options }),
      events: engine.events,
    });
    const released = state.document.pendingDeletes.filter(
      (pending) => (pending.heldFor ?? []).length > 0 && pending.heldFor!.every((s) => deployed.has(s)),
    );
    for (const pending of released) {
      delete pending.heldFor;
      await state.save();
      await executor.deleteRecorded(pending.logicalId, pending.record);
      await state.removePendingDelete(pending.record.physicalId, pending.record.type);
    }
    await state.flush();
  } catch (error) {
    throw await lock.releaseAfter(error);
  } finally {
    await lock.release();
  }
}
