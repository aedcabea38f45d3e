import type { RunTimeline } from '../timeline.js';
import { h, s, seconds } from './dom.js';

const ROW = 22;
const LABEL = 220;
const WIDTH = 760;

/** A run's operations on a time axis (a Gantt), the critical path's bars marked. */
export function timelineView(run: RunTimeline): HTMLElement {
  const scale = run.durationMs > 0 ? WIDTH / run.durationMs : 0;
  const critical = new Set(run.criticalPath);
  const bars = [...run.bars].sort((a, b) => a.start - b.start || a.end - b.end);
  const height = bars.length * ROW + 30;
  const svg = s('svg', { class: 'timeline', 'data-run': run.runId, width: LABEL + WIDTH + 70, height });
  bars.forEach((bar, index) => {
    const y = index * ROW + 4;
    const onPath = critical.has(bar.logicalId);
    svg.append(
      s(
        'g',
        {
          class: `bar action-${bar.action}${onPath ? ' critical' : ''}${bar.failed ? ' failed' : ''}`,
          'data-id': bar.logicalId,
        },
        s(
          'title',
          {},
          [
            `${bar.logicalId} (${bar.type}) ${bar.status}`,
            `waited for dependencies ${seconds(bar.waitedForDependencies)}, queued ${seconds(bar.queued)}, retrying ${seconds(bar.retrying)}, in the provider ${seconds(bar.end - bar.start - bar.retrying)}`,
            bar.reason ?? '',
          ].join('\n'),
        ),
        s('text', { x: 0, y: y + 14, class: 'label' }, bar.logicalId),
        bar.waitedForDependencies > 0 &&
          s('rect', {
            class: 'wait',
            x: LABEL,
            y: y + 8,
            width: bar.waitedForDependencies * scale,
            height: 2,
          }),
        s('rect', {
          class: 'work',
          x: LABEL + bar.start * scale,
          y,
          width: Math.max(2, (bar.end - bar.start) * scale),
          height: ROW - 6,
        }),
        bar.retrying > 0 &&
          s('rect', {
            class: 'retry',
            x: LABEL + bar.start * scale,
            y,
            width: bar.retrying * scale,
            height: ROW - 6,
          }),
        s(
          'text',
          { x: LABEL + bar.end * scale + 4, y: y + 14, class: 'duration' },
          seconds(bar.end - bar.start),
        ),
      ),
    );
  });
  svg.append(s('text', { x: LABEL, y: height - 6, class: 'axis' }, `0 s … ${seconds(run.durationMs)}`));
  return h(
    'div',
    { class: 'run' },
    h('h3', {}, `Run ${run.runId} — ${run.startedAt}, ${seconds(run.durationMs)}`),
    h('p', { class: 'critical-path' }, `Critical path: ${run.criticalPath.join(' → ') || '-'}`),
    bars.length > 0
      ? h('div', { class: 'scroll' }, svg)
      : h('p', { class: 'muted' }, 'No resource operations recorded.'),
    bars.some((bar) => bar.failed) &&
      h(
        'ul',
        { class: 'failures' },
        ...bars
          .filter((bar) => bar.failed)
          .map((bar) => h('li', { class: 'error' }, `${bar.logicalId} ${bar.status}: ${bar.reason ?? ''}`)),
      ),
    run.notes.length > 0 &&
      h(
        'ul',
        { class: 'notes' },
        ...run.notes.map((note) =>
          h(
            'li',
            {},
            `${note.timestamp} ${note.status}${note.logicalId ? ` ${note.logicalId}` : ''}${note.reason ? `: ${note.reason}` : ''}`,
          ),
        ),
      ),
  );
}
