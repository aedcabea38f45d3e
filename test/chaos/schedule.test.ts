import { describe, expect, it } from 'vitest';
import { faultSpecSchema } from '../../src/sandbox/admin/faults.js';
import { prng } from '../helpers/prng.js';
import { RECREATABLE } from './chaos-app.js';
import {
  MAKES,
  OPERATION_STARTED,
  REMOVES,
  STATE,
  describeStep,
  scheduleFor,
  type Step,
} from './schedule.js';

const SEEDS = Array.from({ length: 300 }, (_, i) => i);
const laterSteps = SEEDS.flatMap((seed) => scheduleFor(seed).steps.slice(1));
const callOf = (step: Step) => `${step.fault?.service}:${step.fault?.operation}`;
const calls = (table: ReadonlyArray<[string, string]>) => new Set(table.map(([s, o]) => `${s}:${o}`));

describe('prng', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const draw = (seed: number) => {
      const next = prng(seed);
      return Array.from({ length: 20 }, () => next());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('draws in [0, 1), spread evenly', () => {
    const next = prng(7);
    const values = Array.from({ length: 20_000 }, () => next());
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const buckets = [0, 0, 0, 0];
    for (const v of values) buckets[Math.floor(v * 4)]! += 1;
    for (const count of buckets) expect(Math.abs(count - 5000)).toBeLessThan(300);
  });
});

describe('scheduleFor', () => {
  it('stands for the same schedule whenever a seed is replayed', () => {
    for (const seed of SEEDS.slice(0, 50)) expect(scheduleFor(seed)).toEqual(scheduleFor(seed));
  });

  it('keeps printed seeds replayable: seed 1 is the schedule `npm run chaos -- --seed 1` printed', () => {
    expect(scheduleFor(1).steps.map(describeStep)).toEqual([
      'deploy v1',
      'deploy v2 | SIGKILL after 3 operations started',
      'destroy',
      'rollback --revert-failed | fault ssm:PutParameter 652 ms latency, every call',
      'deploy v1 --recreate-via-cc-api Queue | fault cloudcontrolapi:CreateResource InternalError 500, every call (4)',
      'deploy v3',
      'deploy v3 --recreate-via-cc-api Queue | fault ssm:PutParameter connection dropped, call 2 | SIGKILL after 1 operations started',
    ]);
  });

  it('gives different seeds different schedules', () => {
    const printed = new Set(SEEDS.map((seed) => scheduleFor(seed).steps.map(describeStep).join('\n')));
    expect(printed.size).toBeGreaterThan(SEEDS.length * 0.95);
  });

  it('starts with a plain first deploy, then 3 to 7 commands', () => {
    for (const seed of SEEDS) {
      const { steps } = scheduleFor(seed);
      expect(steps[0]).toEqual({ command: 'deploy', version: 1, noRollback: false });
      expect(steps.length).toBeGreaterThanOrEqual(4);
      expect(steps.length).toBeLessThanOrEqual(8);
    }
  });

  it('places only faults the sandbox accepts', () => {
    for (const step of laterSteps)
      if (step.fault) expect(faultSpecSchema.parse(step.fault)).toEqual(step.fault);
  });

  it('places a fault on a call the command makes, or on the state bucket', () => {
    const state = calls(STATE);
    const allowed: Record<Step['command'], Set<string>> = {
      deploy: calls([...MAKES, ...REMOVES, ...STATE]),
      recreate: calls([...MAKES, ...REMOVES, ...STATE]),
      destroy: calls([...REMOVES, ...STATE]),
      rollback: calls([...MAKES, ...REMOVES, ...STATE]),
      scrub: calls([...MAKES, ...REMOVES, ...STATE]),
      'orphan-import': state,
      drift: new Set(['ssm:PutParameter', 'ssm:GetParameter', ...state]),
      tamper: new Set(),
    };
    for (const step of laterSteps) if (step.fault) expect(allowed[step.command]).toContain(callOf(step));
    // Every table is reached, the state bucket from every command that takes faults.
    const hit = new Set(laterSteps.filter((step) => step.fault).map(callOf));
    for (const call of [...calls(MAKES), ...calls(REMOVES), ...state]) expect(hit).toContain(call);
  });

  it('kills a command that runs resource operations after one to three of them started, others after a delay', () => {
    for (const step of laterSteps) {
      if (!step.kill) continue;
      if (['deploy', 'recreate', 'destroy'].includes(step.command)) {
        expect(step.kill).toMatchObject({ marker: OPERATION_STARTED });
        expect('marker' in step.kill && [1, 2, 3].includes(step.kill.count)).toBe(true);
      } else {
        expect('delayMs' in step.kill && step.kill.delayMs >= 200 && step.kill.delayMs < 2200).toBe(true);
      }
    }
  });

  it('never faults or kills the out-of-band change, and recreates only what may be recreated', () => {
    for (const step of laterSteps) {
      if (step.command === 'tamper') expect(step).toEqual({ command: 'tamper' });
      if (step.command === 'recreate') expect(RECREATABLE).toContain(step.logicalId);
    }
  });

  it('reaches every command, fault shape and signal, faulting about 60% and killing about 40% of the steps', () => {
    const commands = new Set(laterSteps.map((step) => step.command));
    expect([...commands].sort()).toEqual(
      ['deploy', 'destroy', 'drift', 'orphan-import', 'recreate', 'rollback', 'scrub', 'tamper'].sort(),
    );
    const shapes = new Set(
      laterSteps.flatMap((step) => (step.fault ? [describeStep(step).split(', ')[0]] : [])),
    );
    for (const shape of [
      'answer lost after it applied',
      'connection dropped',
      'InternalError 500',
      'ValidationError 400',
      'latency',
    ]) {
      expect([...shapes].some((line) => line?.includes(shape))).toBe(true);
    }
    expect(new Set(laterSteps.flatMap((step) => (step.kill ? [step.kill.signal] : [])))).toEqual(
      new Set(['SIGKILL', 'SIGINT']),
    );
    const chaotic = laterSteps.filter((step) => step.command !== 'tamper');
    const share = (has: (step: Step) => boolean) => chaotic.filter(has).length / chaotic.length;
    expect(share((step) => step.fault !== undefined)).toBeCloseTo(0.6, 1);
    expect(share((step) => step.kill !== undefined)).toBeCloseTo(0.4, 1);
  });
});

describe('describeStep', () => {
  const cases: Array<[Step, string]> = [
    [{ command: 'deploy', version: 2, noRollback: true }, 'deploy v2 --no-rollback'],
    [
      { command: 'recreate', version: 3, logicalId: 'Param', layer: 'sdk-provider' },
      'deploy v3 --recreate-via-sdk-provider Param',
    ],
    [
      { command: 'destroy', kill: { signal: 'SIGINT', marker: ' started', count: 2 } },
      'destroy | SIGINT after 2 operations started',
    ],
    [
      { command: 'rollback', revertFailed: false, kill: { signal: 'SIGKILL', delayMs: 700 } },
      'rollback | SIGKILL after 700 ms',
    ],
    [{ command: 'orphan-import', logicalId: 'Topic' }, 'orphan Topic, then import it back'],
    [{ command: 'tamper' }, 'change /chaos/param out of band'],
    [{ command: 'drift', mode: 'revert' }, 'drift --revert'],
    [
      {
        command: 'scrub',
        fault: { service: 's3', operation: 'PutObject', nth: 1, dropConnection: true, afterApply: true },
      },
      'scrub | fault s3:PutObject answer lost after it applied, call 1',
    ],
    [
      {
        command: 'drift',
        mode: 'read',
        fault: { service: 'ssm', operation: 'GetParameter', nth: 2, dropConnection: true },
      },
      'drift | fault ssm:GetParameter connection dropped, call 2',
    ],
  ];
  it.each(cases)('%j prints as "%s"', (step, line) => expect(describeStep(step)).toBe(line));
});
