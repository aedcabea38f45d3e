/**
 * Spec 003, "Lock acquisition": a held lock is retried 3 times at 2-second
 * intervals (4 attempts). An attempt that fails but then finds no lock is
 * retried at once without counting, up to 3 extra attempts per command.
 * Commands that write state without deploying fail fast.
 */
export interface LockSchedule {
  retries: number;
  intervalMs: number;
  extraAttempts: number;
}

export const RETRY_SCHEDULE: LockSchedule = { retries: 3, intervalMs: 2_000, extraAttempts: 3 };
export const FAIL_FAST_SCHEDULE: LockSchedule = { retries: 0, intervalMs: 2_000, extraAttempts: 3 };

/** TTL measured from the last renewal: it tolerates fourteen missed renewals before it lapses. */
export const LOCK_TTL_MS = 30 * 60_000;
export const LOCK_RENEW_INTERVAL_MS = 2 * 60_000;

/** What an attempt found after its create was refused. */
export type LockObservation =
  { kind: 'released' } | { kind: 'unreadable' } | { kind: 'expired' } | { kind: 'held' };

export type NextStep = 'retry-now' | 'take-over' | 'wait-and-retry' | 'give-up';

export interface ScheduleBudget {
  retriesLeft: number;
  extraLeft: number;
}

/** The decision after a failed attempt, as a pure function of what it found and the budget left. */
export function nextLockStep(observation: LockObservation, budget: ScheduleBudget): NextStep {
  if (observation.kind === 'expired') return 'take-over';
  if (observation.kind === 'released' && budget.extraLeft > 0) return 'retry-now';
  return budget.retriesLeft > 0 ? 'wait-and-retry' : 'give-up';
}
