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
 */
export function scheduleNodes(
  operations: readonly ScheduledOperation[],
  pastMs: Readonly<Record<string, number>>,
  profile: LatencyProfile,
): EtaNode[] {
  const nodes: EtaNode[] = operations.map((op) => ({
    id: op.logicalId,
    durationMs: expectedDuration(op.type, op.action, pastMs, profile),
    dependsOn: op.phase === 'cleanup' ? [...op.dependsOn, PHASE_BARRIER] : op.dependsOn,
  }));
  if (operations.some((op) => op.phase === 'cleanup')) {
    const deployIds = operations.filter((op) => op.phase === 'deploy').map((op) => op.logicalId);
    nodes.push({ id: PHASE_BARRIER, durationMs: 0, dependsOn: deployIds });
  }
  return nodes;
}
