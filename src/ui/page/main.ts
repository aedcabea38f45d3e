import type { Dependencies, TimelineEvent } from '../timeline.js';
import { h } from './dom.js';
import { sandboxView } from './sandbox-view.js';
import { historyView, stackView } from './stack-view.js';
import { stacksView } from './stacks-view.js';

declare global {
  interface Window {
    /** Set by `cdkd events --html`: the page shows these events only, with no server. */
    CDKD_EVENTS?: { stackName: string; region: string; events: TimelineEvent[]; dependencies: Dependencies };
  }
}

const main = document.getElementById('main')!;

async function render(): Promise<void> {
  const embedded = window.CDKD_EVENTS;
  if (embedded) {
    main.replaceChildren(
      h(
        'section',
        {},
        h('h2', {}, `${embedded.stackName} `, h('span', { class: 'muted' }, embedded.region)),
        historyView(embedded.events, embedded.dependencies),
      ),
    );
    return;
  }
  const route = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  main.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const view =
      route[0] === 'stack' && route[1] && route[2]
        ? await stackView(route[1], route[2])
        : route[0] === 'sandbox'
          ? await sandboxView(() => void render())
          : await stacksView();
    main.replaceChildren(view);
  } catch (error) {
    main.replaceChildren(h('p', { class: 'error', id: 'load-error' }, (error as Error).message));
  }
  document.body.dataset.ready = 'true';
}

window.addEventListener('hashchange', () => void render());
void render();
