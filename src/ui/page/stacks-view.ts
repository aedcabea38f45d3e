import type { StackOverview } from '../../toolkit/ui/ui-types.js';
import { getJson } from './api.js';
import { h } from './dom.js';

export async function stacksView(): Promise<HTMLElement> {
  const { bucket, stacks } = await getJson<{ bucket: string; stacks: StackOverview[] }>('/api/stacks');
  const rows = stacks.map((stack) =>
    h(
      'tr',
      {
        'data-stack': stack.stackName,
        'data-region': stack.region,
        class: stack.parent ? 'nested' : undefined,
      },
      h(
        'td',
        {},
        h(
          'a',
          { href: `#/stack/${encodeURIComponent(stack.region)}/${encodeURIComponent(stack.stackName)}` },
          stack.stackName,
        ),
      ),
      h('td', {}, stack.region),
      h('td', { class: `status ${statusClass(stack.lastRunStatus)}` }, stack.lastRunStatus ?? '-'),
      h('td', {}, stack.lastRunAt ?? stack.updatedAt),
      h('td', { class: 'count' }, stack.resourceCount),
      h('td', {}, lockText(stack.lock)),
      h('td', {}, stack.pendingJournal > 0 ? `${stack.pendingJournal} segment(s) to roll back` : '-'),
      h(
        'td',
        {
          class: `drift ${stack.drift ? (stack.drift.drifted.length > 0 ? 'bad' : 'good') : ''}`,
          'data-checked-at': stack.drift?.checkedAt,
          'data-drifted': stack.drift?.drifted.join(' '),
        },
        driftText(stack.drift),
      ),
    ),
  );
  return h(
    'section',
    {},
    h('h2', {}, 'Stacks'),
    h('p', { class: 'muted' }, `State bucket ${bucket}`),
    stacks.length === 0
      ? h('p', {}, 'No stacks in state.')
      : h(
          'table',
          { id: 'stacks' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['Stack', 'Region', 'Last run', 'When', 'Resources', 'Lock', 'Journal', 'Drift'].map((t) =>
                h('th', {}, t),
              ),
            ),
          ),
          h('tbody', {}, ...rows),
        ),
  );
}

function statusClass(status: string | undefined): string {
  if (!status) return '';
  return /FAILED|ROLLBACK|INTERRUPTED/.test(status) ? 'bad' : 'good';
}

function lockText(lock: StackOverview['lock']): string {
  if (!lock) return '-';
  if ('unreadable' in lock) return 'held (unreadable lock record)';
  return `held by ${lock.owner}${lock.operation ? ` (${lock.operation})` : ''}`;
}

/** The last drift check: when, and how many resources had drifted (missing ones said apart). */
function driftText(drift: StackOverview['drift']): string {
  if (!drift) return 'never checked';
  const found =
    drift.drifted.length === 0
      ? 'in sync'
      : `${drift.drifted.length} drifted${drift.missing.length > 0 ? ` (${drift.missing.length} missing)` : ''}: ${drift.drifted.join(', ')}`;
  return `${found}, ${drift.mode === 'detect' ? 'checked' : drift.mode === 'accept' ? 'accepted' : 'reverted'} ${drift.checkedAt}`;
}
