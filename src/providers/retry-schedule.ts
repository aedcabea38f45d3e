import type { RetryClass } from './retry-class.js';

/** Throttling and transient: 1 s doubling, capped at 8 s; 8 retries, 47 s of sleep. */
export const GENERIC_SCHEDULE_MS: readonly number[] = [1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000];

/** IAM propagation: re-probe about every 2 s; 26 retries, 47.75 s of sleep. */
export const IAM_PROPAGATION_SCHEDULE_MS: readonly number[] = [
  250,
  500,
  1000,
  ...Array<number>(23).fill(2000),
];

/** Name cooldown: 64 s over 8 retries, to cover SQS's stated 60 s window. */
export const NAME_COOLDOWN_SCHEDULE_MS: readonly number[] = [
  2000, 4000, 8000, 10000, 10000, 10000, 10000, 10000,
];

/** What one retry sequence has spent so far. */
export interface RetryCounters {
  throttling: number;
  transient: number;
  propagation: number;
  cooldown: number;
  /** Propagation backoff only: an interleaved throttle's wait is not in it. */
  propagationMs: number;
  cooldownMs: number;
}

export const NO_RETRIES: RetryCounters = {
  throttling: 0,
  transient: 0,
  propagation: 0,
  cooldown: 0,
  propagationMs: 0,
  cooldownMs: 0,
};

export type RetryVerdict = { retry: true; delayMs: number } | { retry: false; exhausted: boolean };

export function totalRetries(counters: RetryCounters): number {
  return counters.throttling + counters.transient + counters.propagation + counters.cooldown;
}

/**
 * Whether the next failure of class `retryClass` is retried, and after how long. Every
 * retry takes one attempt from the budget of the widest class the sequence has met, so a
 * throttle in an IAM-propagation race leaves 25 propagation retries, not 26.
 */
export function nextRetry(counters: RetryCounters, retryClass: RetryClass | undefined): RetryVerdict {
  if (retryClass === undefined) return { retry: false, exhausted: false };
  const propagating = retryClass === 'iam-propagation' || counters.propagation > 0;
  const budget = propagating ? IAM_PROPAGATION_SCHEDULE_MS.length : GENERIC_SCHEDULE_MS.length;
  if (totalRetries(counters) >= budget) return { retry: false, exhausted: true };
  switch (retryClass) {
    case 'iam-propagation':
      return { retry: true, delayMs: at(IAM_PROPAGATION_SCHEDULE_MS, counters.propagation) };
    case 'name-cooldown':
      return { retry: true, delayMs: at(NAME_COOLDOWN_SCHEDULE_MS, counters.cooldown) };
    case 'throttling':
    case 'transient':
      return { retry: true, delayMs: at(GENERIC_SCHEDULE_MS, counters.throttling + counters.transient) };
  }
}

/** The counters after one retry of `retryClass` that waited `delayMs`. */
export function countRetry(counters: RetryCounters, retryClass: RetryClass, delayMs: number): RetryCounters {
  switch (retryClass) {
    case 'iam-propagation':
      return {
        ...counters,
        propagation: counters.propagation + 1,
        propagationMs: counters.propagationMs + delayMs,
      };
    case 'name-cooldown':
      return { ...counters, cooldown: counters.cooldown + 1, cooldownMs: counters.cooldownMs + delayMs };
    case 'throttling':
      return { ...counters, throttling: counters.throttling + 1 };
    case 'transient':
      return { ...counters, transient: counters.transient + 1 };
  }
}

/** Past the end of a schedule (a long mixed sequence), its last step repeats. */
function at(schedule: readonly number[], index: number): number {
  return schedule[Math.min(index, schedule.length - 1)]!;
}

/**
 * The line printed when a sequence that retried ends in failure, e.g.
 * `MyFunction: gave up after 26 IAM-propagation retries over 47.75s of propagation backoff
 * (the full propagation budget) - <AWS message>`.
 */
export function giveUpLine(
  label: string,
  counters: RetryCounters,
  exhausted: boolean,
  detail: string,
): string {
  const parts: string[] = [];
  if (counters.propagation > 0) {
    parts.push(
      `${retries(counters.propagation, 'IAM-propagation')} over ${seconds(counters.propagationMs)} of propagation backoff`,
    );
  }
  if (counters.cooldown > 0) {
    parts.push(
      `${retries(counters.cooldown, 'name-cooldown')} over ${seconds(counters.cooldownMs)} waiting for the name to be released`,
    );
  }
  if (counters.transient > 0)
    parts.push(`${retries(counters.transient, 'transient server-error')} (HTTP 5xx)`);
  if (parts.length === 0) parts.push(retries(counters.throttling, 'throttling'));
  let note = '';
  if (exhausted && counters.propagation > 0) note = ' (the full propagation budget)';
  else if (exhausted && counters.cooldown > 0) note = ' (the full name-cooldown budget)';
  return `${label}: gave up after ${parts.join(' and ')}${note} - ${detail}`;
}

function retries(count: number, kind: string): string {
  return `${count} ${kind} ${count === 1 ? 'retry' : 'retries'}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)}s`;
}
