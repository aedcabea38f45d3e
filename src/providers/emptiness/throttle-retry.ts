import { classifyAwsError, httpStatusOf } from '../../aws/error-class.js';
import { systemClock, type Clock } from '../clock.js';

/** Spec 002: up to three retries of a throttled probe, exponential, 3.5 s in all per target. */
export const PROBE_RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];

export function isThrottled(error: unknown): boolean {
  const status = httpStatusOf(error);
  return classifyAwsError(error) === 'throttling' || status === 429 || status === 503;
}

/**
 * Runs one probe call, retrying only a throttling response (a throttling code, HTTP 429 or
 * 503); every other failure, and the last throttle, is rethrown for the verdict to decide.
 */
export async function withProbeRetry<T>(call: () => Promise<T>, clock: Clock = systemClock): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const delay = PROBE_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isThrottled(error)) throw error;
      await clock.sleep(delay);
    }
  }
}
