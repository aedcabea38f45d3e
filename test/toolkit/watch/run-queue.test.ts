import { describe, expect, it } from 'vitest';
import { CoalescingQueue } from '../../../src/toolkit/watch/run-queue.js';

/** A run the test ends by hand, so triggers can land while it is under way. */
function controlledRuns() {
  const ends: Array<() => void> = [];
  let started = 0;
  const run = () =>
    new Promise<void>((resolve) => {
      started++;
      ends.push(resolve);
    });
  const endCurrent = async () => {
    ends.shift()!();
    // Let the queue see the end and start what it owes.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, endCurrent, started: () => started };
}

describe('CoalescingQueue: one run at a time, triggers meanwhile coalesced into one', () => {
  it('a trigger when idle starts a run at once', () => {
    const runs = controlledRuns();
    const queue = new CoalescingQueue(runs.run, () => undefined);
    queue.trigger();
    expect(runs.started()).toBe(1);
    expect(queue.busy).toBe(true);
  });

  it('triggers during a run start exactly one more after it, not one each', async () => {
    const runs = controlledRuns();
    const queue = new CoalescingQueue(runs.run, () => undefined);
    queue.trigger();
    queue.trigger();
    queue.trigger();
    queue.trigger();
    expect(runs.started()).toBe(1);
    await runs.endCurrent();
    expect(runs.started()).toBe(2);
    await runs.endCurrent();
    expect(runs.started()).toBe(2);
    expect(queue.busy).toBe(false);
  });

  it('a trigger during the coalesced run queues one more again', async () => {
    const runs = controlledRuns();
    const queue = new CoalescingQueue(runs.run, () => undefined);
    queue.trigger();
    queue.trigger();
    await runs.endCurrent();
    queue.trigger();
    await runs.endCurrent();
    expect(runs.started()).toBe(3);
  });

  it('a failed run is reported and the queue carries on', async () => {
    const failures: unknown[] = [];
    let calls = 0;
    const queue = new CoalescingQueue(
      async () => {
        calls++;
        if (calls === 1) throw new Error('synth broke');
      },
      (error) => failures.push(error),
    );
    queue.trigger();
    await queue.stop();
    expect(failures).toEqual([new Error('synth broke')]);
    const next = new CoalescingQueue(
      async () => void calls++,
      () => undefined,
    );
    next.trigger();
    await next.stop();
    expect(calls).toBe(2);
  });

  it('stop waits for the run under way and drops what was queued', async () => {
    const runs = controlledRuns();
    const queue = new CoalescingQueue(runs.run, () => undefined);
    queue.trigger();
    queue.trigger();
    let stopped = false;
    const stopping = queue.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    await runs.endCurrent();
    await stopping;
    expect(runs.started()).toBe(1);
    queue.trigger();
    expect(runs.started()).toBe(1);
  });
});
