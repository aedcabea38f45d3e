import { propertyHash } from '../../plan/index.js';
import { holdsMask } from '../../plan/property-diff.js';
import type { LiveResource } from '../../providers/index.js';
import { throwIfInterrupted } from '../../interrupted.js';
import { FAIL_FAST_SCHEDULE } from '../../state/lock-schedule.js';
import { walkDag } from '../../dag/index.js';
import { acceptedProperties, driftOf } from './drift-rules.js';
import { revertProperties } from '../../resource-types/index.js';
import type { ResourceDrift } from '../../messages/index.js';
import { stackProviderContext, type EngineContext, type StackIdentity } from '../engine-context.js';
import { NESTED_STACK_TYPE } from '../../resource-types/index.js';
import { StackState } from '../../stack-state/index.js';
import { maskedReadBack } from '../../stack-state/index.js';
import { writeOnlyOf } from '../planning/index.js';

export type { ResourceDrift } from '../../messages/index.js';

/** `detect` only reads; `accept` takes the live values into state; `revert` writes the recorded ones back. */
export type DriftMode = 'detect' | 'accept' | 'revert';

export interface DriftOptions {
  mode: DriftMode;
  concurrency: number;
  /** The first SIGINT/SIGTERM: no resource starts; an accept saves nothing, a revert saves what it did. */
  signal?: AbortSignal;
}

export interface DriftResult {
  found: boolean;
  drifted: ResourceDrift[];
}

/**
 * `cdkd drift`: each recorded resource read live through the provider that made it and
 * compared with what cdkd applied (and, where it holds one, the last read-back). `accept` and `revert` take the lock and fail fast on
 * it (spec 003); a revert goes through the provider's update on the retry schedules. A
 * resource AWS no longer holds is reported, never re-created or forgotten here.
 */
export async function driftStack(
  engine: EngineContext,
  stack: StackIdentity,
  options: DriftOptions,
): Promise<DriftResult> {
  const ref = { stackName: stack.stateName, region: stack.region };
  const { signal } = options;
  if (options.mode === 'detect') return compare(engine, stack, options);
  const lock = {
    operation: `drift --${options.mode}`,
    schedule: FAIL_FAST_SCHEDULE,
    ...(signal ? { signal } : {}),
  };
  return engine.backend.locks.withLock(ref, lock, () => compare(engine, stack, options));
}

/** Reads and compares every resource; accepts or reverts what drifted as `mode` says. */
async function compare(
  engine: EngineContext,
  stack: StackIdentity,
  options: DriftOptions,
): Promise<DriftResult> {
  const ref = { stackName: stack.stateName, region: stack.region };
  const { signal } = options;
  const state = await StackState.open(engine.backend.store, ref);
  if (state.isNew) return { found: false, drifted: [] };
  const router = engine.routerFor(stack, { concurrency: options.concurrency });
  const context = stackProviderContext(engine, stack);
  const sendable = engine.sendable(stack.region);
  const drifted: ResourceDrift[] = [];
  const readLive = async (logicalId: string) => {
    const record = state.record(logicalId)!;
    const provider = await router.providerFor(record.type, record.provisionedBy);
    return {
      provider,
      read: () =>
        engine.retry(logicalId, () =>
          provider.read(
            { logicalId, type: record.type, physicalId: record.physicalId, properties: record.properties },
            context,
          ),
        ),
    };
  };
  const outcome = await walkDag(
    // A nested stack's resources are in its own state: `cdkd drift Parent/Child` compares them.
    Object.keys(state.document.resources)
      .filter((id) => state.record(id)!.type !== NESTED_STACK_TYPE)
      .map((id) => ({ id, dependsOn: [] })),
    async (logicalId) => {
      const record = state.record(logicalId)!;
      const { provider, read } = await readLive(logicalId);
      const live = await read();
      // What cdkd last read back counts too (a never-expire retention read as 0); what it applied wins.
      const recorded = { ...(record.observedProperties ?? {}), ...record.properties };
      const writeOnly = live ? await writeOnlyOf(engine, stack, router, provider, record.type) : [];
      const properties = live ? driftOf(recorded, live.properties, writeOnly) : [];
      if (live && properties.length === 0) return;
      drifted.push({
        logicalId,
        type: record.type,
        physicalId: record.physicalId,
        missing: !live,
        properties,
      });
      if (!live || options.mode === 'detect') return;
      if (options.mode === 'accept') {
        // Only the applied bag takes live values; the read-back bag is replaced whole.
        const applied = properties.filter((drift) => Object.hasOwn(record.properties, drift.property));
        const accepted = acceptedProperties(record.properties, applied);
        state.document.resources[logicalId] = {
          ...record,
          properties: accepted,
          observedProperties: maskedReadBack(live.properties, accepted),
          propertyHash: propertyHash(accepted),
        };
        return;
      }
      await engine.retry(logicalId, async () =>
        provider.update(
          {
            logicalId,
            type: record.type,
            physicalId: record.physicalId,
            properties: await sendable(unmasked(revertProperties(record.type, recorded), live)),
            // AWS returns no write-only value: the applied one stands for it, so it is not re-sent as changed.
            previousProperties: { ...live.properties, ...pick(recorded, writeOnly) },
          },
          context,
        ),
      );
      const after = await read();
      if (after) {
        state.document.resources[logicalId] = {
          ...record,
          observedProperties: maskedReadBack(after.properties, record.properties),
        };
      }
    },
    { concurrency: options.concurrency, priority: () => 0, ...(signal ? { signal } : {}) },
  );
  // Interrupted: what was reverted in AWS is saved; what was only read is not accepted.
  if (options.mode === 'accept')
    throwIfInterrupted(signal, `while reading ${stack.stackName}; nothing was accepted`);
  if (options.mode !== 'detect' && drifted.length > 0) {
    await state.save();
    await state.flush();
  }
  if (options.mode === 'revert')
    throwIfInterrupted(
      signal,
      `while reverting ${stack.stackName}; the reverts in flight finished and are saved, the rest were not started`,
    );
  if (outcome.failed.length > 0) throw outcome.failed[0]!.error;
  drifted.sort((a, b) => a.logicalId.localeCompare(b.logicalId));
  return { found: true, drifted };
}

/** The properties of `properties` that are write-only whole (a path of one segment). */
function pick(properties: Record<string, unknown>, writeOnly: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).filter(([key]) => writeOnly.includes(key)));
}

/** A NoEcho value is never sent as `***` (invariant 3): AWS's own value stands in for it. */
function unmasked(properties: Record<string, unknown>, live: LiveResource): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, holdsMask(value) ? live.properties[key] : value]),
  );
}
