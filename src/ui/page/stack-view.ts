import type { PendingChange, StackDetail } from '../../toolkit/ui/ui-types.js';
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
  const graphHolder = h('div', { id: 'graph-holder' }, graphView(stack));
  return h(
    'section',
    {},
    h('h2', {}, `${stack.stackName} `, h('span', { class: 'muted' }, stack.region)),
    h('h3', {}, 'Dependency graph'),
    diffControls(base, stack, graphHolder),
    graphHolder,
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
          ...['Logical id', 'Type', 'Physical id', 'Route', 'Last change', 'DeletionPolicy'].map((t) =>
            h('th', {}, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...stack.resources.map((resource) =>
          h(
            'tr',
            { 'data-id': resource.logicalId },
            h('td', {}, resource.logicalId),
            h('td', {}, resource.type),
            h('td', { class: 'mono' }, resource.physicalId),
            h('td', {}, resource.route === 'sdk' ? 'SDK' : 'Cloud Control'),
            h(
              'td',
              { class: 'last-change', 'data-at': resource.lastChange?.at },
              resource.lastChange ? `${resource.lastChange.status} ${resource.lastChange.at}` : '-',
            ),
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
            `${name} = ${JSON.stringify(output.value)}${output.exportName ? ` (export ${output.exportName}, imported by ${output.importedBy?.join(', ') || 'no stack'})` : ''}`,
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

/** A button that redraws the graph with a pending `cdkd diff` overlaid (needs `cdkd ui --app`). */
function diffControls(base: string, stack: StackDetail, holder: HTMLElement): HTMLElement {
  const status = h('span', { class: 'muted', id: 'diff-status' });
  const button = h('button', { type: 'button', id: 'show-diff' }, 'Overlay pending diff');
  button.addEventListener('click', () => {
    status.textContent = 'Planning…';
    getJson<{ changes: PendingChange[] }>(`${base}/diff`).then(
      ({ changes }) => {
        holder.replaceChildren(graphView(stack, changes));
        status.textContent = changes.length === 0 ? 'No changes.' : `${changes.length} change(s).`;
      },
      (error: Error) => {
        status.className = 'error';
        status.textContent = error.message;
      },
    );
  });
  return h(
    'p',
    { class: 'legend' },
    button,
    ' ',
    status,
    ' ',
    ...['create', 'update', 'replace', 'delete'].map((kind) =>
      h('span', { class: `chip plan-${kind}` }, kind),
    ),
  );
}
