import { talksToAws } from '../../aws/client-factory.js';
import type { DeploySchedule } from '../../messages/index.js';
import type { PlannedOperation } from '../../plan/index.js';
import { readEvents, type StackEvent, type StackRef } from '../../state/index.js';
import type { EngineContext } from '../engine-context.js';

/** The newest event objects read for past times: about as many recent runs. */
const RECENT_EVENT_OBJECTS = 20;

/**
 * The stack's recent events, for the ETA's past times; none when they cannot be read (a
 * prediction is never worth failing or slowing a deploy over: the read runs beside the plan).
 */
export function recentEvents(engine: EngineContext, ref: StackRef): Promise<StackEvent[]> {
  return readEvents(engine.backend.objects, engine.backend.store.prefix, ref, RECENT_EVENT_OBJECTS).catch(
    () => [],
  );
}

/** What the start event carries for the ETA: the acting operations, and the past medians. */
export async function deploySchedule(
  operations: readonly PlannedOperation[],
  events: Promise<StackEvent[]>,
  concurrency: number,
): Promise<DeploySchedule> {
  // Loaded only for a deploy with work, never on a no-op's path.
  const { pastDurations } = await import('../../eta/index.js');
  const acting = operations.filter((op) => op.kind !== 'no-op');
  const ids = new Set(acting.map((op) => op.logicalId));
  return {
    operations: acting.map((op) => ({
      logicalId: op.logicalId,
      type: op.type,
      action: op.kind,
      phase: op.phase,
      dependsOn: op.dependsOn.filter((dep) => ids.has(dep)),
    })),
    pastMs: pastDurations(await events),
    concurrency,
    awsEndpoint: talksToAws(),
  };
}
