import { criticalPath, PHASE_BARRIER, remainingMs, scheduleNodes, type EtaNode } from '../../eta/index.js';
import { latencyProfile } from '../../latency-profiles/index.js';
import type { DeploySchedule } from '../../messages/index.js';

/**
 * One stack's ETA in the live view: its operations with their expected times (the stack's
 * past medians, else, on AWS, the aws profile's), what has finished, and the prediction made
 * at its start. None when a time is unknown: a first deploy to another endpoint (the
 * sandbox), whose times the profile does not describe. Loaded by the view only for a stack
 * with work.
 */
export class StackEta {
  private readonly nodes: EtaNode[] | undefined;
  private readonly done = new Set<string>();
  private readonly concurrency: number;
  /** What the ETA said when the stack started. */
  readonly predictedMs: number | undefined;

  constructor(schedule: DeploySchedule) {
    const profile = schedule.awsEndpoint ? latencyProfile('aws') : undefined;
    this.nodes = scheduleNodes(schedule.operations, schedule.pastMs, profile);
    this.concurrency = schedule.concurrency;
    this.predictedMs =
      this.nodes && remainingMs(this.nodes, { done: this.done, inFlight: new Map() }, this.concurrency);
  }

  finished(logicalId: string): void {
    this.done.add(logicalId);
  }

  /** The time left at `now`, given when each operation in flight started: `~42s`, `~3m05s`. */
  remainingText(inFlight: ReadonlyMap<string, number>, now: number): string | undefined {
    if (!this.nodes) return undefined;
    const running = new Map<string, number>();
    for (const [id, since] of inFlight) running.set(id, now - since);
    const total = Math.ceil(
      remainingMs(this.nodes, { done: this.done, inFlight: running }, this.concurrency) / 1000,
    );
    if (total < 60) return `~${total}s`;
    return `~${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s`;
  }

  /** `critical path ~42.0s: Vpc 2.0s → Nat 120.0s → Route 2.0s` (`--verbose`). */
  criticalPathLine(): string {
    if (!this.nodes || this.predictedMs === undefined)
      return 'no ETA: no past deploy of this stack to this endpoint to predict from (AWS_ENDPOINT_URL is set, and the aws profile describes AWS)';
    const path = criticalPath(this.nodes).path.filter((step) => step.id !== PHASE_BARRIER);
    const steps = path.map((step) => `${step.id} ${seconds(step.durationMs)}s`).join(' → ');
    return `critical path ~${seconds(this.predictedMs)}s: ${steps}`;
  }

  /** `ETA predicted 12.3s, took 11.0s (+12%)`: the prediction's error against what it took. */
  verdict(tookMs: number): string | undefined {
    if (this.predictedMs === undefined) return undefined;
    const error = tookMs > 0 ? Math.round(((this.predictedMs - tookMs) / tookMs) * 100) : 0;
    return `ETA predicted ${seconds(this.predictedMs)}s, took ${seconds(tookMs)}s (${error >= 0 ? '+' : ''}${error}%)`;
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
