import type { SandboxRequest } from '../../request.js';
import { sqsErrors } from './sqs-errors.js';
import type { QueueRecord, QueueStore } from './store.js';

export type Input = Record<string, unknown>;

export interface SqsOptions {
  /** How long a deleted queue's name is refused with QueueDeletedRecently (AWS: 60 s). */
  deleteCooldownMs: number;
  now: () => number;
}

/** Everything an SQS operation handler needs for one request. */
export interface SqsCall {
  store: QueueStore;
  accountId: string;
  request: SandboxRequest;
  input: Input;
  options: SqsOptions;
}

/**
 * A queue URL on the host the caller reached the sandbox at, so the SDK (which sends a
 * queue's calls to the host in its URL) comes back here.
 */
export function queueUrl(call: SqsCall, queue: QueueRecord): string {
  const host = call.request.headers['host'] ?? 'localhost';
  return `http://${host}/${queue.accountId}/${queue.name}`;
}

/** The queue a `QueueUrl` names (its last path segment), or QueueDoesNotExist. */
export function requireQueue(call: SqsCall): QueueRecord {
  const url = call.input.QueueUrl;
  if (typeof url !== 'string' || url === '') throw sqsErrors.missingParameter('QueueUrl');
  const name = url.replace(/\/+$/, '').split('/').pop() ?? '';
  const queue = call.store.get(call.request.region, name);
  if (!queue) throw sqsErrors.nonExistentQueue();
  return queue;
}

export function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}
