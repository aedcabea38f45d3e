import { describe, expect, it } from 'vitest';
import { runSchedule } from './run-schedule.js';
import { describeStep, scheduleFor } from './schedule.js';

/**
 * A few fixed schedules of `npm run chaos` (which runs random ones for as long as asked): each
 * kills a command mid-run and faults the sandbox, then recovers and checks nothing is lost.
 */
const SEEDS = [100, 108];

describe('chaos schedules through the built CLI', () => {
  it.each(SEEDS)('seed %i: nothing lost after its kills, faults and recovery', async (seed) => {
    const schedule = scheduleFor(seed);
    const outcome = await runSchedule(schedule);
    const report = [
      ...schedule.steps.map(describeStep),
      ...outcome.steps.map((line) => `${line.what}: ${line.result}`),
      ...outcome.recovery.map((line) => `recovery ${line.what}: ${line.result}`),
      `replay: npm run chaos -- --seed ${seed} --schedules 1`,
    ].join('\n');
    expect(outcome.failure, report).toBeUndefined();
    // The schedule reached what it is here for: a command stopped mid-run.
    expect(
      outcome.steps.some((line) => line.result.startsWith('killed')),
      report,
    ).toBe(true);
    expect(outcome.recovery.map((line) => line.what.split(' ')[0])).toEqual([
      'force-unlock',
      'rollback',
      'deploy',
      'destroy',
    ]);
  });
});
