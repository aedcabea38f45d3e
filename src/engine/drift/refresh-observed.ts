import { messageOf } from '../../errors.js';
import { throwIfInterrupted } from '../../interrupted.js';
import { FAIL_FAST_SCHEDULE } from '../../state/lock-schedule.js';
import { walkDag } from '../../dag/index.js';
import { stackProviderContext, type EngineContext, type StackIdentity } from '../engine-context.js';
import { NESTED_STACK_TYPE } from '../../resource-types/index.js';
import { StackState } from '../../stack-state/index.js';
import { maskedReadBack } from '../../stack-state/index.js';

export interface RefreshResult {
  found: boolean;
  refreshed: string[];
  /** Recorded resources AWS no longer holds: left in state as they are, for a person to check. */
  missing: string[];
  failed: Array<{ logicalId: string; message: string }>;
}

/**
 * `cdkd state refresh-observed`: reads every recorded resource through the provider that
 * made it and stores the read-back as its observedProperties. Nothing is sent to AWS but
 * reads, and nothing else in the record changes. Fails fast on a held lock (spec 003); an
 * interrupt lets the reads in flight end and saves nothing.
 */
export async function refreshObserved(
  engine: EngineContext,
  stack: StackIdentity,
  options: { concurrency: number; signal?: AbortSignal },
): Promise<RefreshResult> {
  const ref = { stackName: stack.stateName, region: stack.region };
  const { signal } = options;
  const lock = { operation: 'refresh-observed', schedule: FAIL_FAST_SCHEDULE, ...(signal ? { signal } : {}) };
  return engine.backend.locks.withLock(ref, lock, async () => {
    const state = await StackState.open(engine.backend.store, ref);
    const result: RefreshResult = { found: !state.isNew, refreshed: [], missing: [], failed: [] };
    if (state.isNew) return result;
    const router = engine.routerFor(stack, { concurrency: options.concurrency });
    const context = stackProviderContext(engine, stack);
    // A nested stack's resources are in its own state, refreshed by its own name.
    const ids = Object.keys(state.document.resources)
      .filter((id) => state.record(id)!.type !== NESTED_STACK_TYPE)
      .sort();
    const outcome = await walkDag(
      ids.map((id) => ({ id, dependsOn: [] })),
      async (logicalId) => {
        const record = state.record(logicalId)!;
        const provider = await router.providerFor(record.type, record.provisionedBy);
        const live = await engine.retry(logicalId, () =>
          provider.read(
            { logicalId, type: record.type, physicalId: record.physicalId, properties: record.properties },
            { ...context, ...(record.region ? { region: record.region } : {}) },
          ),
        );
        if (!live) return void result.missing.push(logicalId);
        // A NoEcho value the record holds masked is masked in what was read back too. The
        // record is replaced, not changed: a saved document's records keep their cached text.
        state.document.resources[logicalId] = {
          ...record,
          observedProperties: maskedReadBack(live.properties, record.properties),
        };
        result.refreshed.push(logicalId);
      },
      { concurrency: options.concurrency, priority: () => 0, ...(signal ? { signal } : {}) },
    );
    // What was read is not saved: an interrupted refresh leaves state as it was.
    throwIfInterrupted(signal, `while re-reading the resources of ${stack.stackName}; nothing was saved`);
    result.failed = outcome.failed.map(({ id, error }) => ({ logicalId: id, message: messageOf(error) }));
    if (result.refreshed.length > 0) {
      await state.save();
      await state.flush();
    }
    result.refreshed.sort();
    result.missing.sort();
    return result;
  });
}
