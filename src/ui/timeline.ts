/**
 * A deploy's timeline from its stored events: one bar per resource operation, and the
 * critical path, the chain of operations each of which could start only when the one before
 * it ended. Pure and free of Node imports: the page (browser) and `cdkd events --html` share it.
 */
import { criticalPath, type EtaNode } from '../eta/critical-path.js';

/** The fields of a stored event (src/state/documents/events-document.ts) the timeline reads. */
export interface TimelineEvent {
  timestamp: string;
  runId: string;
  status: string;
  logicalId?: string;
  resourceType?: string;
  reason?: string;
  action?: string;
  startedAt?: string;
  retryMs?: number;
}

export interface TimelineBar {
  logicalId: string;
  type: string;
  action: string;
  status: string;
  failed: boolean;
  reason?: string;
  /** Milliseconds from the run's first operation start. */
  start: number;
  end: number;
  /** Time from the run's start until the last operation this one waited for had ended. */
  waitedForDependencies: number;
  /** Time between being free to start and starting (the concurrency limit). */
  queued: number;
  /** Of start..end, the failed attempts and the waits between them. */
  retrying: number;
}

export interface RunTimeline {
  runId: string;
  /** ISO time of the first operation's start. */
  startedAt: string;
  durationMs: number;
  bars: TimelineBar[];
  /** Logical ids, first to last. */
  criticalPath: string[];
  /** The run's stack-level and rollback events (no start time), in order. */
  notes: TimelineEvent[];
}

/** logicalId → the logical ids it depends on (the stack's state). */
export type Dependencies = Readonly<Record<string, readonly string[]>>;

/** The runs among `events`, most recent first. */
export function runTimelines(events: readonly TimelineEvent[], dependencies: Dependencies): RunTimeline[] {
  const runs = new Map<string, TimelineEvent[]>();
  for (const event of events) {
    const run = runs.get(event.runId) ?? [];
    run.push(event);
    runs.set(event.runId, run);
  }
  return [...runs].map(([runId, run]) => runTimeline(runId, run, dependencies)).reverse();
}

export function runTimeline(
  runId: string,
  events: readonly TimelineEvent[],
  dependencies: Dependencies,
): RunTimeline {
  const operations = events.filter((event) => event.logicalId && event.startedAt && event.action);
  const notes = events.filter((event) => !operations.includes(event));
  const times = operations.map((event) => Date.parse(event.startedAt!));
  const origin = times.length > 0 ? Math.min(...times) : Date.parse(events[0]?.timestamp ?? '') || 0;
  const bars = operations.map((event) => ({
    logicalId: event.logicalId!,
    type: event.resourceType ?? '',
    action: event.action!,
    status: event.status,
    failed: event.status.endsWith('_FAILED'),
    ...(event.reason ? { reason: event.reason } : {}),
    start: Date.parse(event.startedAt!) - origin,
    end: Date.parse(event.timestamp) - origin,
    waitedForDependencies: 0,
    queued: 0,
    retrying: event.retryMs ?? 0,
  }));
  const byId = new Map(bars.map((bar) => [bar.logicalId, bar]));
  // Each operation weighs what it added to the run once free to start (queued and running):
  // the heaviest chain then ends when the run did, and is the chain that held it up.
  const nodes: EtaNode[] = bars.map((bar) => {
    const before = predecessors(bar, byId, dependencies);
    const ready = Math.max(0, ...before.map((other) => other.end));
    bar.waitedForDependencies = Math.min(ready, bar.start);
    bar.queued = Math.max(0, bar.start - ready);
    return {
      id: bar.logicalId,
      dependsOn: before.map((other) => other.logicalId),
      durationMs: bar.end - ready,
    };
  });
  const end = Math.max(0, ...bars.map((bar) => bar.end));
  return {
    runId,
    startedAt: new Date(origin).toISOString(),
    durationMs: end,
    bars,
    criticalPath: criticalPath(nodes).path.map((step) => step.id),
    notes,
  };
}

/**
 * The operations `bar` had to wait for within its run: what it depends on for a create or an
 * update, what depends on it for a delete (dependents go first).
 */
function predecessors(
  bar: TimelineBar,
  byId: ReadonlyMap<string, TimelineBar>,
  dependencies: Dependencies,
): TimelineBar[] {
  const ids =
    bar.action === 'delete'
      ? Object.keys(dependencies).filter((id) => dependencies[id]?.includes(bar.logicalId))
      : (dependencies[bar.logicalId] ?? []);
  return ids
    .map((id) => byId.get(id))
    .filter(
      (other): other is TimelineBar =>
        other !== undefined && (other.action === 'delete') === (bar.action === 'delete'),
    );
}
