import type { SandboxClock } from '../clock/clock.js';
import type { DeliveryOutcome } from '../ports/index.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  maxAgeMs: number;
}

export interface RetryResult {
  outcome: DeliveryOutcome;
  attempts: number;
  /** Why it stopped: EventBridge's EXHAUSTED_RETRY_CONDITION. */
  condition: 'MaximumRetryAttempts' | 'MaximumEventAgeInSeconds' | 'NonRetryable' | 'Delivered';
}

/** Failures no retry mends (EventBridge sends them to the dead-letter queue at once). */
const NON_RETRYABLE = new Set(['AccessDenied', 'ResourceNotFoundException', 'UnsupportedTarget']);

/** Backoff between attempts, on the sandbox's clock: 1 s doubling to at most 5 minutes. */
const backoffMs = (attempt: number): number => Math.min(1000 * 2 ** (attempt - 1), 300_000);

/** The result when `outcome` ends the attempts (delivered, or a failure not worth retrying). */
export function settled(outcome: DeliveryOutcome, attempts: number): RetryResult | undefined {
  if (outcome.delivered) return { outcome, attempts, condition: 'Delivered' };
  if (NON_RETRYABLE.has(outcome.code)) return { outcome, attempts, condition: 'NonRetryable' };
  return undefined;
}

/**
 * Attempts after a first that failed and may be retried, until one delivers, one fails for
 * good, or the policy's attempts or event age run out (`startedAt`: when the first ran).
 */
export async function retrying(
  clock: SandboxClock,
  policy: RetryPolicy,
  first: DeliveryOutcome,
  startedAt: number,
  attempt: () => Promise<DeliveryOutcome>,
): Promise<RetryResult> {
  let outcome = first;
  for (let attempts = 1; ; attempts += 1) {
    const done = settled(outcome, attempts);
    if (done) return done;
    if (attempts >= policy.maxAttempts) return { outcome, attempts, condition: 'MaximumRetryAttempts' };
    const wait = backoffMs(attempts);
    if (clock.now() + wait - startedAt > policy.maxAgeMs) {
      return { outcome, attempts, condition: 'MaximumEventAgeInSeconds' };
    }
    await clock.sleep(wait);
    outcome = await attempt();
  }
}
