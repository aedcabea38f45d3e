import type { ServiceTarget } from './service-token.js';

/** What a response poll reads at a request's key. */
export type ResponseRead = { kind: 'answered'; body: Uint8Array } | { kind: 'pending' } | { kind: 'missing' };

/**
 * Where handlers answer: one object per request in the state bucket, first holding a
 * placeholder (so an unanswered request reads apart from a missing one, and the bucket is
 * proven writable before any handler runs), then what the handler PUT to its URL.
 */
export interface ResponseStore {
  /** Writes the request's placeholder and returns a pre-signed PUT URL for its key. */
  prepare(requestId: string, expiresInSeconds: number): Promise<{ key: string; url: string }>;
  read(requestId: string): Promise<ResponseRead>;
  /** Removes a request's object once its answer is taken. */
  discard(requestId: string): Promise<void>;
}

/** How a request reaches the handler. */
export interface HandlerTransport {
  /** Resolves once the target can take a request (a function Active, its last update Successful). */
  ready(target: ServiceTarget, signal?: AbortSignal): Promise<void>;
  /** Delivers the request asynchronously; resolves once the service accepted it. */
  send(target: ServiceTarget, payload: string, signal?: AbortSignal): Promise<void>;
}
