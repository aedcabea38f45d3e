import { CdkdError } from '../errors.js';
import { systemClock, type Clock } from './clock.js';

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

export interface PollOptions {
  /** What is awaited, as the timeout names it: "Load balancer X turning active". */
  what: string;
  deadlineMs: number;
  /** The console the timeout's hint sends the user to ("ECS"); AWS's when absent. */
  console?: string;
  clock?: Clock | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Polls `check` on a 1.5x backoff capped at 5 s until it answers something other than
 * `waiting` (or throws), and returns that answer: the waits CloudFormation makes after an
 * asynchronous API (a Lambda function turning Active, an ECS service reaching steady state, a
 * load balancer turning active). Past `deadlineMs` it fails with RESOURCE_WAIT_TIMEOUT.
 */
export async function pollUntil<T>(check: () => Promise<T | 'waiting'>, options: PollOptions): Promise<T> {
  const clock = options.clock ?? systemClock;
  const deadline = clock.now() + options.deadlineMs;
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 1.5, MAX_DELAY_MS)) {
    const answer = await check();
    if (answer !== 'waiting') return answer;
    if (clock.now() + delay > deadline) {
      throw new CdkdError(
        'RESOURCE_WAIT_TIMEOUT',
        `${options.what} did not happen within ${Math.round(options.deadlineMs / 60_000)} minutes.`,
        { hint: `Check it in the ${options.console ?? 'AWS'} console, then deploy again.` },
      );
    }
    await clock.sleep(delay, options.signal);
  }
}
