import type { LatencyProfile } from '../latency-profiles/index.js';
import type { EtaNode } from './critical-path.js';
import { expectedDuration } from './durations.js';

/** An operation as a deploy's start event lists it (messages' DeploySchedule). */
export interface ScheduledOperation {
  logicalId: string;
  type: string;
  action: string;
  phase: 'deploy' | 'cleanup';
  dependsOn: readonly string[];
}

/** Stands between the phases: cleanup starts once every deploy operation is done. */
export const PHASE_BARRIER = '(deploy phase)';

/**
 * The ETA's nodes for a deploy's operations, each with its expected time; cleanup operations
 * (deletes, run after every deploy operation) wait on a zero-time barrier after the deploy phase.
 * Undefined when an operation's time is unknown (see expectedDuration): no prediction then.
 */
export function scheduleNodes(
  operations: readonly ScheduledOperation[],
  pastMs: Readonly<Record<string, number>>,
  profile: LatencyProfile | undefined,
): EtaNode[] | undefined {
  const nodes: EtaNode[] = [];
  for (const op of operations) {
    const durationMs = expectedDuration(op.type, op.action, pastMs, profile);
    if (durationMs === undefined) return undefined;
    nodes.push({
      id: op.logicalId,
      durationMs,
      dependsOn: op.phase === 'cleanup' ? [...op.dependsOn, PHASE_BARRIER] : op.dependsOn,
    });
  }
  if (operations.some((op) => op.phase === 'cleanup')) {
    const deployIds = operations.filter((op) => op.phase === 'deploy').map((op) => op.logicalId);
    nodes.push({ id: PHASE_BARRIER, durationMs: 0, dependsOn: deployIds });
  }
  return nodes;
}
