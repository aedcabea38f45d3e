import { CdkdError } from '../../errors.js';

/** Re-invocations after a handler answered with an IAM-propagation failure: each re-runs the user's handler. */
export const DEFAULT_REINVOCATIONS = 2;
export const REINVOCATION_DELAYS_MS: readonly number[] = [5_000, 10_000];
/** A request the service refused before any handler ran: nothing ran, so a wider budget is safe. */
export const PRE_DELIVERY_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000];
/** The placeholder PutObject that precedes every invoke. */
export const PLACEHOLDER_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000];
/** Polling the response object: fast first (a sandbox answers in milliseconds), then every second. */
export const POLL_DELAYS_MS: readonly number[] = [20, 40, 80, 160, 320, 640, 1_000];
/** CloudFormation's wait for a custom resource without ServiceTimeout: one hour. */
export const DEFAULT_SERVICE_TIMEOUT_S = 3_600;

/** `CDKD_CR_AUTHZ_MAX_RETRIES`: how many re-invocations; 0 turns them off (and nothing else). */
export function reinvocationBudget(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CDKD_CR_AUTHZ_MAX_RETRIES;
  if (raw === undefined || raw.trim() === '') return DEFAULT_REINVOCATIONS;
  if (!/^\d+$/.test(raw.trim())) {
    throw new CdkdError(
      'CUSTOM_RESOURCE_RETRIES_INVALID',
      `CDKD_CR_AUTHZ_MAX_RETRIES is ${JSON.stringify(raw)}, not a whole number.`,
      {
        hint: 'Set CDKD_CR_AUTHZ_MAX_RETRIES to 0 (no re-invocations) or a small whole number, or unset it.',
      },
    );
  }
  return Number(raw.trim());
}

/** The ServiceTimeout property in seconds (CloudFormation allows 1 to 3600), or the default. */
export function serviceTimeoutSeconds(logicalId: string, value: unknown): number {
  if (value === undefined) return DEFAULT_SERVICE_TIMEOUT_S;
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > 3_600) {
    throw new CdkdError(
      'CUSTOM_RESOURCE_SERVICE_TIMEOUT',
      `${logicalId}: ServiceTimeout ${JSON.stringify(value)} is not a whole number of seconds from 1 to 3600.`,
      {
        hint: 'Set ServiceTimeout between 1 and 3600, or leave it out for the one-hour default.',
      },
    );
  }
  return seconds;
}

/** The delay before retry `index` (0-based), or undefined once the schedule is spent. */
export function delayAt(schedule: readonly number[], index: number): number | undefined {
  return schedule[index];
}
