import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runLimited } from '../../src/assets/run-limited.js';

describe('runLimited', () => {
  it('runs at most `limit` at once and returns results in input order', async () => {
    let running = 0;
    let peak = 0;
    const results = await runLimited([30, 5, 20, 1, 10, 2], 2, async (ms) => {
      running += 1;
      peak = Math.max(peak, running);
      await sleep(ms);
      running -= 1;
      return ms * 10;
    });
    expect(results).toEqual([300, 50, 200, 10, 100, 20]);
    expect(peak).toBe(2);
  });

  it('starts nothing after a failure, waits for the calls in flight, then throws the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const outcome = runLimited([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      await sleep(item === 1 ? 5 : 25);
      if (item === 1) throw new Error('first');
      finished.push(item);
      throw new Error('later');
    });
    await expect(outcome).rejects.toThrow('first');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([2]);
  });

  it('returns an empty list for no items', async () => {
    expect(await runLimited([], 3, async () => 1)).toEqual([]);
  });
});
