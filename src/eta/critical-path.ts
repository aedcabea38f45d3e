/** One operation of a deploy as the ETA sees it. */
export interface EtaNode {
  id: string;
  /** Operations that must finish first (others outside the list are ignored). */
  dependsOn: readonly string[];
  /** What it is expected to take, in ms. */
  durationMs: number;
}

/** Where the run stands: finished operations, and how long each in-flight one has run. */
export interface EtaProgress {
  done: ReadonlySet<string>;
  /** Logical id → ms since it started. */
  inFlight: ReadonlyMap<string, number>;
}

export interface CriticalPath {
  totalMs: number;
  /** The longest chain, first operation first, with each one's expected time. */
  path: Array<{ id: string; durationMs: number }>;
}

const NOTHING_DONE: EtaProgress = { done: new Set(), inFlight: new Map() };

/**
 * The longest chain of expected times through the DAG, given `progress`: a finished operation
 * takes nothing more, an in-flight one what is left of its time (never below zero: one past
 * its estimate is expected to end now). Unlimited concurrency, as the engine starts an
 * operation the moment its dependencies finish.
 */
export function criticalPath(nodes: readonly EtaNode[], progress: EtaProgress = NOTHING_DONE): CriticalPath {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const finish = new Map<string, number>();
  const via = new Map<string, string | undefined>();
  const left = (node: EtaNode) =>
    progress.done.has(node.id) ? 0 : Math.max(0, node.durationMs - (progress.inFlight.get(node.id) ?? 0));
  // Iterative depth-first post-order: a deep chain must not overflow the stack.
  for (const root of nodes) {
    const stack: Array<{ node: EtaNode; expanded: boolean }> = [{ node: root, expanded: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (finish.has(top.node.id)) {
        stack.pop();
        continue;
      }
      const deps = top.node.dependsOn.map((id) => byId.get(id)).filter((dep) => dep !== undefined);
      if (!top.expanded) {
        top.expanded = true;
        for (const dep of deps) if (!finish.has(dep.id)) stack.push({ node: dep, expanded: false });
        continue;
      }
      stack.pop();
      let longest: EtaNode | undefined;
      for (const dep of deps) if (!longest || finish.get(dep.id)! > finish.get(longest.id)!) longest = dep;
      finish.set(top.node.id, left(top.node) + (longest ? finish.get(longest.id)! : 0));
      via.set(top.node.id, longest?.id);
    }
  }
  let end: string | undefined;
  for (const node of nodes) if (end === undefined || finish.get(node.id)! > finish.get(end)!) end = node.id;
  const path: CriticalPath['path'] = [];
  for (let id = end; id !== undefined; id = via.get(id)) path.push({ id, durationMs: left(byId.get(id)!) });
  return { totalMs: end === undefined ? 0 : finish.get(end)!, path: path.reverse() };
}

/**
 * The time left: the critical path of what remains, or the remaining work spread over
 * `concurrency` slots when that is longer (a wide stack is limited by its slots, not its depth).
 */
export function remainingMs(nodes: readonly EtaNode[], progress: EtaProgress, concurrency: number): number {
  const path = criticalPath(nodes, progress).totalMs;
  let work = 0;
  for (const node of nodes) {
    if (progress.done.has(node.id)) continue;
    work += Math.max(0, node.durationMs - (progress.inFlight.get(node.id) ?? 0));
  }
  return Math.max(path, work / Math.max(1, concurrency));
}
