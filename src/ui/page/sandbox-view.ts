import { getJson, sendJson } from './api.js';
import { h } from './dom.js';
import { heldDataView, recentCallsView } from './sandbox-data-view.js';

interface Latency {
  types: Record<string, unknown>;
  operations: Record<string, number>;
}

interface Fault {
  id: string;
  service: string;
  operation: string;
  errorCode?: string;
  latencyMs?: number;
  count?: number;
}

/**
 * The sandbox's inventory, call counts, recent calls, faults and what its queues, buckets and
 * functions hold, through its admin API (proxied by the server) and the services' read APIs.
 */
export async function sandboxView(rerender: () => void): Promise<HTMLElement> {
  const [inventory, calls, faults, latency, recent] = await Promise.all([
    getJson<Record<string, Record<string, Array<{ id: string; region?: string }>>>>('/api/sandbox/inventory'),
    getJson<{ calls: Record<string, { count: number }>; total: number }>('/api/sandbox/calls'),
    getJson<{ faults: Fault[] }>('/api/sandbox/faults'),
    getJson<Latency>('/api/sandbox/latency'),
    recentCallsView(),
  ]);
  const held = await heldDataView(inventory);
  const form = faultForm(rerender);
  return h(
    'section',
    {},
    h('h2', {}, 'Sandbox'),
    h('h3', {}, 'Faults'),
    h(
      'ul',
      { id: 'faults' },
      ...faults.faults.map((fault) =>
        h(
          'li',
          { 'data-fault': fault.id },
          `${fault.service}:${fault.operation} → ${fault.errorCode ?? ''}${fault.latencyMs ? ` +${fault.latencyMs} ms` : ''}${fault.count ? ` ×${fault.count}` : ''} `,
        ),
      ),
    ),
    form,
    h('h3', {}, 'Latency model'),
    h(
      'ul',
      { id: 'latency' },
      ...Object.entries(latency.operations).map(([operation, ms]) =>
        h('li', { 'data-operation': operation }, `${operation} +${ms} ms`),
      ),
    ),
    latencyForm(latency, rerender),
    h('h3', {}, 'Inventory'),
    h(
      'table',
      { id: 'inventory' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Service'), h('th', {}, 'Kind'), h('th', {}, 'Ids'))),
      h(
        'tbody',
        {},
        ...Object.entries(inventory).flatMap(([service, kinds]) =>
          Object.entries(kinds)
            .filter(([, entries]) => entries.length > 0)
            .map(([kind, entries]) =>
              h(
                'tr',
                { 'data-service': service },
                h('td', {}, service),
                h('td', {}, kind),
                h('td', { class: 'mono' }, entries.map((entry) => entry.id).join(', ')),
              ),
            ),
        ),
      ),
    ),
    h('h3', {}, `Calls (${calls.total})`),
    h(
      'table',
      { id: 'calls' },
      h(
        'tbody',
        {},
        ...Object.entries(calls.calls).map(([operation, count]) =>
          h('tr', {}, h('td', {}, operation), h('td', { class: 'count' }, count.count)),
        ),
      ),
    ),
    h('h3', {}, 'Recent calls'),
    recent,
    held,
  );
}

function faultForm(rerender: () => void): HTMLElement {
  const field = (name: string, placeholder: string) => h('input', { name, placeholder, 'aria-label': name });
  const form = h(
    'form',
    { id: 'add-fault' },
    field('service', 'service (sqs)'),
    field('operation', 'operation (CreateQueue)'),
    field('errorCode', 'error code'),
    field('httpStatus', 'HTTP status'),
    field('latencyMs', 'added latency ms'),
    field('count', 'times'),
    h('button', { type: 'submit' }, 'Add fault'),
    h('span', { class: 'error', id: 'fault-error' }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const spec: Record<string, unknown> = { service: values.service, operation: values.operation };
    if (values.errorCode) spec.errorCode = values.errorCode;
    for (const key of ['httpStatus', 'latencyMs', 'count']) if (values[key]) spec[key] = Number(values[key]);
    sendJson('POST', '/api/sandbox/faults', spec).then(rerender, (error: Error) => {
      form.querySelector('#fault-error')!.textContent = error.message;
    });
  });
  return form;
}

/** Adds (or, with 0, removes) one `service:Operation` delay, keeping the rest of the model. */
function latencyForm(current: Latency, rerender: () => void): HTMLElement {
  const form = h(
    'form',
    { id: 'set-latency' },
    h('input', { name: 'operation', placeholder: 'service:Operation', 'aria-label': 'operation' }),
    h('input', { name: 'ms', placeholder: 'ms (0 removes)', 'aria-label': 'ms' }),
    h('button', { type: 'submit' }, 'Set latency'),
    h('span', { class: 'error', id: 'latency-error' }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const operations = { ...current.operations };
    const ms = Number(values.ms);
    if (ms > 0) operations[values.operation ?? ''] = ms;
    else delete operations[values.operation ?? ''];
    sendJson('PUT', '/api/sandbox/latency', { ...current, operations }).then(rerender, (error: Error) => {
      form.querySelector('#latency-error')!.textContent = error.message;
    });
  });
  return form;
}
