import { systemClock, type Clock } from './clock.js';

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/**
 * Polls `check` on a 1.5x backoff capped at 5 s until it answers `done` (or throws), for the
 * waits CloudFormation makes after an asynchronous API (an ECS service reaching steady state,
 * a load balancer turning active). Past `deadlineMs` it fails with `what` and what to do.
 */
export async function pollUntil(
  check: () => Promise<'done' | 'waiting'>,
  options: { what: string; deadlineMs: number; clock?: Clock; signal?: AbortSignal | undefined },
): Promise<void> {
  const clock = options.clock ?? systemClock;
  const deadline = clock.now() + options.deadlineMs;
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 1.5, MAX_DELAY_MS)) {
    if ((await check()) === 'done') return;
    if (clock.now() + delay > deadline) {
      throw new Error(
        `${options.what} did not happen within ${Math.round(options.deadlineMs / 60_000)} minutes; check it in the AWS console and deploy again.`,
      );
    }
    await clock.sleep(delay, options.signal);
  }
}
