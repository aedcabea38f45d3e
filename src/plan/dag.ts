import { CdkdError } from '../errors.js';
import { DependencyGraph } from '../template/graph.js';

/** Nodes in dependency order (dependencies first); a cycle is DEPENDENCY_CYCLE naming it. */
export function topologicalOrder(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const pairs = [...edges].flatMap(([node, deps]) => deps.map((dep) => [node, dep] as const));
  return DependencyGraph.fromEdges(edges.keys(), pairs).topologicalOrder();
}

/** Deploy-phase edges: each desired resource waits for the desired resources it depends on. */
export function deployEdges(
  resources: readonly { logicalId: string; dependencies: readonly string[] }[],
): Map<string, string[]> {
  const ids = new Set(resources.map((r) => r.logicalId));
  const edges = new Map<string, string[]>();
  for (const resource of resources) {
    const missing = resource.dependencies.filter((dep) => !ids.has(dep));
    if (missing.length > 0) {
      throw new CdkdError(
        'UNKNOWN_DEPENDENCY',
        `${resource.logicalId} depends on ${missing.join(', ')}, which the template does not deploy.`,
        { hint: 'Check DependsOn and references against the resources and their Conditions.' },
      );
    }
    edges.set(resource.logicalId, [...new Set(resource.dependencies)].sort());
  }
  return edges;
}

/**
 * Cleanup-phase edges, reversed: a removed resource is deleted only after the removed
 * resources that recorded a dependency on it.
 */
export function deletionEdges(
  removed: readonly { logicalId: string; dependencies: readonly string[] }[],
): Map<string, string[]> {
  const edges = new Map<string, string[]>(removed.map((r) => [r.logicalId, []]));
  for (const resource of removed) {
    for (const dep of resource.dependencies) edges.get(dep)?.push(resource.logicalId);
  }
  return new Map([...edges].map(([id, deps]) => [id, [...new Set(deps)].sort()]));
}
