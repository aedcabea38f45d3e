import { setTimeout as sleepFor } from 'node:timers/promises';

/** Time as retries and polling see it; tests inject one that does not wait. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleepFor(ms, undefined, signal ? { signal } : {}),
};
