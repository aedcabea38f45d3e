import { Graph, layout } from '@dagrejs/dagre';
import type { PendingChange, StackDetail, StackResource } from '../../toolkit/ui/ui-types.js';
import { h, s } from './dom.js';

const NODE_WIDTH = 190;
const NODE_HEIGHT = 44;

/**
 * The stack's resources as a graph laid out by dagre, each edge drawn from a resource to what
 * it depends on, top (dependencies) to bottom (dependents).
 */
export function graphView(stack: StackDetail, changes: readonly PendingChange[] = []): HTMLElement {
  const planned = new Map(changes.map((change) => [change.logicalId, change]));
  // Resources a pending diff creates are not in state yet: drawn from the plan.
  const resources: StackResource[] = [
    ...stack.resources,
    ...changes
      .filter(
        (change) =>
          change.kind === 'create' && !stack.resources.some((r) => r.logicalId === change.logicalId),
      )
      .map((change) => ({
        logicalId: change.logicalId,
        type: change.type,
        physicalId: '(not created yet)',
        route: 'sdk' as const,
        dependencies: change.dependsOn,
      })),
  ];
  const known = new Set(resources.map((resource) => resource.logicalId));
  const graph = new Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 48, marginx: 12, marginy: 12 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const resource of resources) {
    graph.setNode(resource.logicalId, { width: NODE_WIDTH, height: NODE_HEIGHT });
  }
  for (const resource of resources) {
    for (const dependency of resource.dependencies) {
      if (known.has(dependency)) graph.setEdge(dependency, resource.logicalId);
    }
  }
  layout(graph);
  const size = graph.graph();
  const svg = s('svg', {
    id: 'graph',
    width: Math.max(size.width ?? 0, NODE_WIDTH),
    height: Math.max(size.height ?? 0, NODE_HEIGHT),
    role: 'img',
    'aria-label': `dependency graph of ${stack.stackName}`,
  });
  svg.append(
    s(
      'defs',
      {},
      s(
        'marker',
        {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 10,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto',
        },
        s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#667' }),
      ),
    ),
  );
  for (const edge of graph.edges()) {
    const points = graph.edge(edge).points ?? [];
    svg.append(
      s('path', {
        class: 'edge',
        'data-from': edge.w,
        'data-to': edge.v,
        d: points
          .map(
            (point: { x: number; y: number }, index: number) =>
              `${index === 0 ? 'M' : 'L'}${point.x},${point.y}`,
          )
          .join(' '),
        'marker-end': 'url(#arrow)',
      }),
    );
  }
  for (const resource of resources) {
    const change = planned.get(resource.logicalId);
    const node = graph.node(resource.logicalId);
    const x = node.x - NODE_WIDTH / 2;
    const y = node.y - NODE_HEIGHT / 2;
    svg.append(
      s(
        'g',
        {
          class: `node route-${resource.route}${change ? ` plan-${change.kind}` : ''}${change?.dataLoss ? ' data-loss' : ''}`,
          'data-id': resource.logicalId,
          'data-plan': change?.kind,
        },
        s(
          'title',
          {},
          `${resource.logicalId}\n${resource.type}\n${resource.physicalId}${change ? `\n${change.kind}: ${change.reason}` : ''}${change?.dataLoss ? '\nDATA LOSS' : ''}`,
        ),
        s('rect', { x, y, width: NODE_WIDTH, height: NODE_HEIGHT, rx: 6 }),
        s('text', { x: x + 8, y: y + 18, class: 'name' }, clip(resource.logicalId, 26)),
        s('text', { x: x + 8, y: y + 35, class: 'type' }, clip(resource.type, 30)),
        change?.dataLoss &&
          s('text', { x: x + NODE_WIDTH - 8, y: y + 18, class: 'loss', 'text-anchor': 'end' }, '⚠'),
      ),
    );
  }
  return h('div', { class: 'scroll' }, svg);
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
