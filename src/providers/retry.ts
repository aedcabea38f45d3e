import { awsErrorCode, httpStatusOf } from '../aws/error-class.js';
import { systemClock, type Clock } from './clock.js';
import { retryClassOf, type RetryClass } from './retry-class.js';
import { backoff, wakeOf } from './retry-propagation.js';
import {
  countRetry,
  giveUpLine,
  nextRetry,
  NO_RETRIES,
  totalRetries,
  type RetryCounters,
} from './retry-schedule.js';

export type { RetryClass } from './retry-class.js';
export { retryClassOf } from './retry-class.js';
export { giveUpLine, nextRetry, type RetryCounters } from './retry-schedule.js';

export interface RetryEvent {
  /** The retry about to happen, 1-based. */
  attempt: number;
  retryClass: RetryClass;
  delayMs: number;
  counters: RetryCounters;
  error: unknown;
}

export interface RetryOptions {
  /** Names the resource on the give-up line (the logical id). */
  label: string;
  clock?: Clock;
  signal?: AbortSignal;
  /** Each retry, before its wait (`--verbose` shows them). */
  onRetry?: (event: RetryEvent) => void;
  /** Once, when a sequence that retried ends in failure; the error is rethrown after. */
  onGiveUp?: (line: string, counters: RetryCounters) => void;
}

/**
 * Runs `operation` (a provider's create / update / delete) and retries it on the
 * schedule of each failure's class (spec 003, "Retry schedules"). The last error is
 * rethrown unchanged, so callers classify it as they would without the retry.
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const clock = options.clock ?? systemClock;
  let counters = NO_RETRIES;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (error) {
      const retryClass = retryClassOf(error);
      const verdict = options.signal?.aborted
        ? { retry: false as const, exhausted: false }
        : nextRetry(counters, retryClass);
      if (!verdict.retry) {
        if (totalRetries(counters) > 0) {
          options.onGiveUp?.(
            giveUpLine(options.label, counters, verdict.exhausted, describe(error)),
            counters,
          );
        }
        throw error;
      }
      counters = countRetry(counters, retryClass!, verdict.delayMs);
      options.onRetry?.({
        attempt: attempt + 1,
        retryClass: retryClass!,
        delayMs: verdict.delayMs,
        counters,
        error,
      });
      // A gated IAM-propagation refusal ends early once the entity it waits on is usable.
      await backoff(clock, verdict.delayMs, options.signal, wakeOf(error));
    }
  }
}

/** The error's message and, when the SDK parsed a response, what it saw of it. */
export function describe(error: unknown): string {
  const message = error instanceof Error ? error.message || 'UnknownError' : String(error);
  if (typeof error !== 'object' || error === null) return message;
  const metadata = (error as { $metadata?: { requestId?: string } }).$metadata;
  // A network failure (ECONNRESET ...) never reached the SDK's response parsing.
  if (!metadata) {
    const networkCode = (error as { code?: unknown }).code;
    return typeof networkCode === 'string' ? `${message} [name=${networkCode} no-$metadata]` : message;
  }
  const requestId = metadata.requestId ? ` requestId=${metadata.requestId}` : '';
  return `${message} [name=${awsErrorCode(error) ?? 'unknown'} http=${httpStatusOf(error) ?? '?'}${requestId}]`;
}
