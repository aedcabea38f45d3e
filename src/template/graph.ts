import { TemplateErrorCode, TemplateEvaluationError } from './errors.js';

/** Node weights (e.g. expected seconds to create); a missing node weighs 1. */
export type Weights = ReadonlyMap<string, number> | ((node: string) => number);

function weightOf(weights: Weights | undefined, node: string): number {
  if (weights === undefined) return 1;
  return (typeof weights === 'function' ? weights(node) : weights.get(node)) ?? 1;
}

/**
 * A DAG of resources: an edge `from → to` means `from` depends on `to` (is created after
 * it). Built from a template by buildDependencyGraph, or from recorded state via fromEdges.
 * Construction rejects cycles, so every method can assume a DAG.
 */
export class DependencyGraph {
  readonly nodes: readonly string[];
  private readonly deps = new Map<string, string[]>();
  private readonly revDeps = new Map<string, string[]>();
  private readonly order: readonly string[];
  private defaultRemaining: Map<string, number> | undefined;

  private constructor(nodes: readonly string[], edges: Iterable<readonly [string, string]>) {
    this.nodes = nodes;
    for (const node of nodes) {
      this.deps.set(node, []);
      this.revDeps.set(node, []);
    }
    for (const [from, to] of edges) {
      const list = this.deps.get(from);
      const back = this.revDeps.get(to);
      if (!list || !back) throw new Error(`edge ${from} → ${to} names a node outside the graph`);
      if (list.includes(to)) continue;
      list.push(to);
      back.push(from);
    }
    // Adjacency in node order, so results do not depend on the order edges were found in.
    const index = new Map(nodes.map((node, i) => [node, i]));
    const byIndex = (a: string, b: string) => index.get(a)! - index.get(b)!;
    for (const list of this.deps.values()) list.sort(byIndex);
    for (const list of this.revDeps.values()) list.sort(byIndex);
    this.assertAcyclic();
    this.order = this.kahn();
  }

  /** `edges` are `[dependent, dependency]` pairs; both ends must be in `nodes`. */
  static fromEdges(nodes: Iterable<string>, edges: Iterable<readonly [string, string]>): DependencyGraph {
    return new DependencyGraph([...new Set(nodes)], edges);
  }

  has(node: string): boolean {
    return this.deps.has(node);
  }

  /** Direct dependencies: what `node` needs first. */
  dependencies(node: string): readonly string[] {
    return this.get(this.deps, node);
  }

  /** Direct dependents: what needs `node`. */
  dependents(node: string): readonly string[] {
    return this.get(this.revDeps, node);
  }

  /** Everything that depends on `node`, directly or not, in topological order. */
  transitiveDependents(node: string): string[] {
    const seen = new Set<string>();
    const stack = [...this.dependents(node)];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...this.dependents(next));
    }
    return this.order.filter((n) => seen.has(n));
  }

  /** Dependencies before dependents (Kahn's algorithm over node-ordered adjacency). */
  topologicalOrder(): string[] {
    return [...this.order];
  }

  /** Dependents before dependencies: the order to delete in. */
  deletionOrder(): string[] {
    return [...this.order].reverse();
  }

  /** Heaviest path from `node` through its dependents, `node` included. */
  longestRemainingPath(node: string, weights?: Weights): number {
    this.get(this.deps, node);
    return this.remaining(weights).get(node)!;
  }

  /** Heaviest dependency chain in the graph (0 when empty): a lower bound on deploy time. */
  criticalPathLength(weights?: Weights): number {
    let max = 0;
    for (const value of this.remaining(weights).values()) max = Math.max(max, value);
    return max;
  }

  private remaining(weights: Weights | undefined): Map<string, number> {
    if (weights === undefined && this.defaultRemaining) return this.defaultRemaining;
    const out = new Map<string, number>();
    for (let i = this.order.length - 1; i >= 0; i--) {
      const node = this.order[i]!;
      let tail = 0;
      for (const dependent of this.revDeps.get(node)!) tail = Math.max(tail, out.get(dependent)!);
      out.set(node, weightOf(weights, node) + tail);
    }
    if (weights === undefined) this.defaultRemaining = out;
    return out;
  }

  private get(map: Map<string, string[]>, node: string): readonly string[] {
    const value = map.get(node);
    if (!value) throw new Error(`"${node}" is not in the dependency graph`);
    return value;
  }

  private kahn(): string[] {
    const waiting = new Map<string, number>();
    for (const node of this.nodes) waiting.set(node, this.deps.get(node)!.length);
    const queue = this.nodes.filter((n) => waiting.get(n) === 0);
    for (let i = 0; i < queue.length; i++) {
      for (const dependent of this.revDeps.get(queue[i]!)!) {
        const left = waiting.get(dependent)! - 1;
        waiting.set(dependent, left);
        if (left === 0) queue.push(dependent);
      }
    }
    return queue;
  }

  /** Iterative DFS (templates can chain hundreds deep); reports the first cycle in order. */
  private assertAcyclic(): void {
    const state = new Map<string, 'open' | 'done'>();
    for (const start of this.nodes) {
      if (state.has(start)) continue;
      const stack: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
      state.set(start, 'open');
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        const deps = this.deps.get(top.node)!;
        if (top.next >= deps.length) {
          state.set(top.node, 'done');
          stack.pop();
          continue;
        }
        const dep = deps[top.next++]!;
        const seen = state.get(dep);
        if (seen === 'open') {
          const chain = stack.map((f) => f.node);
          const cycle = [...chain.slice(chain.indexOf(dep)), dep];
          throw new TemplateEvaluationError(
            TemplateErrorCode.DependencyCycle,
            `Resources.${dep}`,
            `dependency cycle: ${cycle.join(' → ')} (each depends on the next)`,
            { hint: 'Break the cycle: remove a DependsOn or a reference between these resources.' },
          );
        }
        if (seen === undefined) {
          state.set(dep, 'open');
          stack.push({ node: dep, next: 0 });
        }
      }
    }
  }
}
