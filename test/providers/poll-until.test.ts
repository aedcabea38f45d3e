import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { pollUntil } from '../../src/providers/poll-until.js';
import { fakeClock } from './custom-resource-fakes.js';

describe('pollUntil', () => {
  it("answers the check's first answer that is not `waiting`, after backing off 1.5x from 250 ms", async () => {
    const clock = fakeClock();
    const answers: Array<string> = ['waiting', 'waiting', 'waiting', 'ready'];
    const answer = await pollUntil(async () => answers.shift()!, { what: 'X', deadlineMs: 60_000, clock });
    expect(answer).toBe('ready');
    expect(clock.slept).toEqual([250, 375, 562.5]);
  });

  it('caps the delay at 5 s', async () => {
    const clock = fakeClock();
    let polls = 0;
    await pollUntil(async () => (++polls < 12 ? 'waiting' : 'done'), {
      what: 'X',
      deadlineMs: 600_000,
      clock,
    });
    expect(Math.max(...clock.slept)).toBe(5_000);
  });

  it('fails with RESOURCE_WAIT_TIMEOUT naming what it waited for and the console to check, past the deadline', async () => {
    const clock = fakeClock();
    const waiting = pollUntil(async () => 'waiting', {
      what: 'ECS service S reaching a steady state',
      deadlineMs: 2 * 60_000,
      console: 'ECS',
      clock,
    });
    await expect(waiting).rejects.toBeInstanceOf(CdkdError);
    await expect(waiting).rejects.toMatchObject({
      code: 'RESOURCE_WAIT_TIMEOUT',
      message: 'ECS service S reaching a steady state did not happen within 2 minutes.',
      hint: 'Check it in the ECS console, then deploy again.',
    });
    expect(clock.now()).toBeLessThanOrEqual(2 * 60_000);
  });

  it("passes a check's error through at once", async () => {
    const clock = fakeClock();
    const failing = pollUntil(
      async () => {
        throw new Error('failed: no reason given');
      },
      { what: 'X', deadlineMs: 60_000, clock },
    );
    await expect(failing).rejects.toThrow('failed: no reason given');
    expect(clock.slept).toEqual([]);
  });
});
