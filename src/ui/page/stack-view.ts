import type { StackDetail } from '../../toolkit/ui-types.js';
import { runTimelines, type Dependencies, type TimelineEvent } from '../timeline.js';
import { getJson } from './api.js';
import { h } from './dom.js';
import { graphView } from './graph-view.js';
import { timelineView } from './timeline-view.js';

export async function stackView(region: string, stackName: string): Promise<HTMLElement> {
  const base = `/api/stacks/${encodeURIComponent(region)}/${encodeURIComponent(stackName)}`;
  const [stack, history] = await Promise.all([
    getJson<StackDetail>(base),
    getJson<{ events: TimelineEvent[]; dependencies: Dependencies }>(`${base}/events`),
  ]);
  return h(
    'section',
    {},
    h('h2', {}, `${stack.stackName} `, h('span', { class: 'muted' }, stack.region)),
    h('h3', {}, 'Dependency graph'),
    graphView(stack),
    h('h3', {}, 'Resources'),
    h(
      'table',
      { id: 'resources' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Logical id', 'Type', 'Physical id', 'Route', 'DeletionPolicy'].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        ...stack.resources.map((resource) =>
          h(
            'tr',
            {},
            h('td', {}, resource.logicalId),
            h('td', {}, resource.type),
            h('td', { class: 'mono' }, resource.physicalId),
            h('td', {}, resource.route === 'sdk' ? 'SDK' : 'Cloud Control'),
            h('td', {}, resource.deletionPolicy ?? '-'),
          ),
        ),
      ),
    ),
    Object.keys(stack.outputs).length > 0 && h('h3', {}, 'Outputs'),
    Object.keys(stack.outputs).length > 0 &&
      h(
        'ul',
        {},
        ...Object.entries(stack.outputs).map(([name, output]) =>
          h(
            'li',
            {},
            `${name} = ${JSON.stringify(output.value)}${output.exportName ? ` (export ${output.exportName})` : ''}`,
          ),
        ),
      ),
    h('h3', {}, 'Deploy history'),
    historyView(history.events, history.dependencies),
  );
}

export function historyView(events: TimelineEvent[], dependencies: Dependencies): HTMLElement {
  const runs = runTimelines(events, dependencies);
  return h(
    'div',
    { id: 'history' },
    runs.length === 0 ? h('p', {}, 'No events recorded.') : undefined,
    ...runs.map((run) => timelineView(run)),
  );
}
