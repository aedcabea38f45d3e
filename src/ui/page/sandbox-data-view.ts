import { getJson } from './api.js';
import { h } from './dom.js';

type Inventory = Record<string, Record<string, Array<{ id: string; region?: string }>>>;

interface RecentCall {
  at: string;
  service: string;
  operation: string;
  latencyMs: number;
  status: number;
  fault?: string;
}

interface QueueMessages {
  queue: string;
  messages: Array<{ messageId: string; body: string; receiveCount: number }>;
}

interface ObjectListing {
  bucket: string;
  objects: Array<{ key: string; size: number }>;
  truncated: boolean;
}

interface FunctionLog {
  functionName: string;
  events: Array<{ timestamp: string; message: string }>;
}

/** The sandbox's recent calls, newest first. */
export async function recentCallsView(): Promise<HTMLElement> {
  const { calls } = await getJson<{ calls: RecentCall[] }>('/api/sandbox/calls/recent');
  return h(
    'table',
    { id: 'recent-calls' },
    h(
      'thead',
      {},
      h('tr', {}, ...['At', 'Operation', 'Latency', 'Status', 'Fault'].map((label) => h('th', {}, label))),
    ),
    h(
      'tbody',
      {},
      ...calls.map((call) =>
        h(
          'tr',
          {
            'data-operation': `${call.service}:${call.operation}`,
            'data-latency': call.latencyMs,
            ...(call.fault ? { 'data-fault': call.fault, class: 'faulted' } : {}),
          },
          h('td', { class: 'mono' }, call.at.slice(11, 23)),
          h('td', {}, `${call.service}:${call.operation}`),
          h('td', { class: 'count' }, `${call.latencyMs} ms`),
          h('td', { class: 'count' }, call.status === 0 ? 'dropped' : call.status),
          h('td', {}, call.fault ?? ''),
        ),
      ),
    ),
  );
}

/** What the inventory's queues, buckets and functions hold: messages (not received), objects, logs. */
export async function heldDataView(inventory: Inventory): Promise<HTMLElement> {
  const query = (entry: { id: string; region?: string }, name: string) =>
    `${name}=${encodeURIComponent(entry.id)}${entry.region ? `&region=${encodeURIComponent(entry.region)}` : ''}`;
  const queues = inventory.sqs?.['AWS::SQS::Queue'] ?? [];
  const buckets = inventory.s3?.['AWS::S3::Bucket'] ?? [];
  const functions = inventory.lambda?.['AWS::Lambda::Function'] ?? [];
  const [messages, objects, logs] = await Promise.all([
    Promise.all(
      queues.map((queue) =>
        getJson<QueueMessages>(`/api/sandbox/views/sqs/messages?${query(queue, 'queue')}`),
      ),
    ),
    Promise.all(
      buckets.map((bucket) => getJson<ObjectListing>(`/api/data/objects?${query(bucket, 'bucket')}`)),
    ),
    Promise.all(functions.map((fn) => getJson<FunctionLog>(`/api/data/logs?${query(fn, 'function')}`))),
  ]);
  return h(
    'div',
    {},
    h('h3', {}, 'Messages waiting in queues'),
    h(
      'ul',
      { id: 'queue-messages' },
      ...messages.flatMap((queue) =>
        queue.messages.map((message) =>
          h(
            'li',
            { 'data-queue': queue.queue, 'data-message': message.messageId },
            h('span', { class: 'mono' }, queue.queue),
            ` (received ${message.receiveCount}×) `,
            h('code', {}, message.body),
          ),
        ),
      ),
    ),
    h('h3', {}, 'Objects in buckets'),
    h(
      'ul',
      { id: 'bucket-objects' },
      ...objects.flatMap((listing) => [
        ...listing.objects.map((object) =>
          h(
            'li',
            { 'data-bucket': listing.bucket, 'data-key': object.key },
            h('span', { class: 'mono' }, `${listing.bucket}/${object.key}`),
            ` ${object.size} B`,
          ),
        ),
        listing.truncated ? h('li', {}, `${listing.bucket}: more objects than shown`) : undefined,
      ]),
    ),
    h('h3', {}, 'Lambda logs'),
    h(
      'div',
      { id: 'function-logs' },
      ...logs.map((log) =>
        h(
          'details',
          { 'data-function': log.functionName },
          h('summary', {}, `${log.functionName} (${log.events.length} events)`),
          h('pre', {}, log.events.map((event) => `${event.timestamp} ${event.message}`).join('\n')),
        ),
      ),
    ),
  );
}
