import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/providers/clock.js';
import { retryClassOf, type RetryClass } from '../../src/providers/retry-class.js';
import {
  countRetry,
  GENERIC_SCHEDULE_MS,
  giveUpLine,
  IAM_PROPAGATION_SCHEDULE_MS,
  NAME_COOLDOWN_SCHEDULE_MS,
  nextRetry,
  NO_RETRIES,
  type RetryCounters,
} from '../../src/providers/retry-schedule.js';
import { withRetry } from '../../src/providers/retry.js';

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** Runs a sequence of failures of the given classes through the schedule. */
function run(classes: RetryClass[]): { delays: number[]; counters: RetryCounters; exhausted: boolean } {
  let counters = NO_RETRIES;
  const delays: number[] = [];
  for (const retryClass of classes) {
    const verdict = nextRetry(counters, retryClass);
    if (!verdict.retry) return { delays, counters, exhausted: verdict.exhausted };
    delays.push(verdict.delayMs);
    counters = countRetry(counters, retryClass, verdict.delayMs);
  }
  return { delays, counters, exhausted: false };
}

function sdkError(name: string, message = '', status?: number): Error {
  return Object.assign(new Error(message), {
    name,
    ...(status ? { $metadata: { httpStatusCode: status } } : {}),
  });
}

describe('the retry schedules (spec 003)', () => {
  it.each([
    ['throttling', GENERIC_SCHEDULE_MS, [1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000], 47_000],
    ['iam-propagation', IAM_PROPAGATION_SCHEDULE_MS, [250, 500, 1000, ...Array(23).fill(2000)], 47_750],
    [
      'name-cooldown',
      NAME_COOLDOWN_SCHEDULE_MS,
      [2000, 4000, 8000, 10000, 10000, 10000, 10000, 10000],
      64_000,
    ],
  ] as const)('%s', (_, schedule, expected, budgetMs) => {
    expect(schedule).toEqual(expected);
    expect(sum(schedule)).toBe(budgetMs);
  });

  it.each<[string, RetryClass[], number[], boolean]>([
    ['8 throttles, then the 9th gives up', Array(9).fill('throttling'), GENERIC_SCHEDULE_MS.slice(), true],
    ['8 transient 5xx, then the 9th gives up', Array(9).fill('transient'), GENERIC_SCHEDULE_MS.slice(), true],
    [
      '26 propagation retries, then the 27th gives up',
      Array(27).fill('iam-propagation'),
      IAM_PROPAGATION_SCHEDULE_MS.slice(),
      true,
    ],
    [
      '8 name-cooldown retries, then the 9th gives up',
      Array(9).fill('name-cooldown'),
      NAME_COOLDOWN_SCHEDULE_MS.slice(),
      true,
    ],
    [
      'a throttle mid-race waits its own step and takes one of the 26 attempts',
      ['iam-propagation', 'throttling', ...Array(25).fill('iam-propagation')],
      [250, 1000, 500, 1000, ...Array(22).fill(2000)],
      true,
    ],
    [
      'a propagation race widens a throttled sequence to 26',
      [...Array(8).fill('throttling'), 'iam-propagation'],
      [...GENERIC_SCHEDULE_MS, 250],
      false,
    ],
  ])('%s', (_, classes, delays, exhausted) => {
    const result = run(classes);
    expect(result.delays).toEqual(delays);
    expect(result.exhausted).toBe(exhausted);
  });

  it('counts propagation seconds without an interleaved throttle’s wait', () => {
    const { counters } = run(['iam-propagation', 'throttling', ...Array(25).fill('iam-propagation')]);
    expect(counters).toMatchObject({ propagation: 25, throttling: 1, propagationMs: 45_750 });
  });

  it('does not retry an error without a retry class', () => {
    expect(nextRetry(NO_RETRIES, undefined)).toEqual({ retry: false, exhausted: false });
  });
});

describe('the give-up line', () => {
  it.each<[string, Partial<RetryCounters>, boolean, string]>([
    [
      'a spent propagation budget',
      { propagation: 26, propagationMs: 47_750 },
      true,
      'Fn: gave up after 26 IAM-propagation retries over 47.75s of propagation backoff (the full propagation budget) - msg',
    ],
    [
      'a race cut short',
      { propagation: 5, propagationMs: 5_750 },
      false,
      'Fn: gave up after 5 IAM-propagation retries over 5.75s of propagation backoff - msg',
    ],
    [
      'server errors',
      { transient: 8 },
      true,
      'Fn: gave up after 8 transient server-error retries (HTTP 5xx) - msg',
    ],
    [
      'a mixed sequence',
      { propagation: 3, propagationMs: 1_750, transient: 2 },
      false,
      'Fn: gave up after 3 IAM-propagation retries over 1.75s of propagation backoff and 2 transient server-error retries (HTTP 5xx) - msg',
    ],
    [
      'a name held too long',
      { cooldown: 8, cooldownMs: 64_000 },
      true,
      'Fn: gave up after 8 name-cooldown retries over 64.00s waiting for the name to be released (the full name-cooldown budget) - msg',
    ],
    ['throttling only', { throttling: 1 }, false, 'Fn: gave up after 1 throttling retry - msg'],
  ])('%s', (_, counters, exhausted, line) => {
    expect(giveUpLine('Fn', { ...NO_RETRIES, ...counters }, exhausted, 'msg')).toBe(line);
  });
});

describe('retryClassOf', () => {
  it.each<[string, Error, RetryClass | undefined]>([
    ['throttling code', sdkError('ThrottlingException', 'Rate exceeded', 400), 'throttling'],
    ['HTTP 503', sdkError('ServiceUnavailable', '', 503), 'transient'],
    ['HTTP 500 with no code', sdkError('UnknownError', '', 500), 'transient'],
    [
      'Lambda role not yet assumable',
      sdkError(
        'InvalidParameterValueException',
        'The role defined for the function cannot be assumed by Lambda.',
      ),
      'iam-propagation',
    ],
    [
      'instance profile',
      sdkError('InvalidParameterValue', 'Invalid IAM Instance Profile name'),
      'iam-propagation',
    ],
    [
      'explicit deny',
      sdkError('AccessDenied', 'not authorized to perform: s3:PutObject with an explicit deny'),
      undefined,
    ],
    [
      'SQS name cooldown',
      sdkError('QueueDeletedRecently', 'You must wait 60 seconds after deleting a queue'),
      'name-cooldown',
    ],
    [
      'S3 conditional conflict',
      sdkError(
        'OperationAborted',
        'A conflicting conditional operation is currently in progress against this resource.',
      ),
      'name-cooldown',
    ],
    [
      'Lambda still Pending',
      sdkError('ResourceConflictException', 'The function is currently in the following state: Pending'),
      'throttling',
    ],
    ['Cloud Control handler throttling', sdkError('Throttling', 'Rate exceeded'), 'throttling'],
    ['validation', sdkError('ValidationException', 'bad value', 400), undefined],
    ['already exists', sdkError('AlreadyExists', 'exists'), undefined],
  ])('%s', (_, error, expected) => {
    expect(retryClassOf(error)).toBe(expected);
  });
});

describe('withRetry', () => {
  function fakeClock(): Clock & { slept: number[] } {
    const slept: number[] = [];
    let now = 0;
    return {
      slept,
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    };
  }

  it('retries on each failure’s schedule and returns the first success', async () => {
    const clock = fakeClock();
    const failures = [
      sdkError('InvalidParameterValueException', 'cannot be assumed by Lambda'),
      sdkError('ThrottlingException', '', 400),
      sdkError('InvalidParameterValueException', 'cannot be assumed by Lambda'),
    ];
    const attempts: number[] = [];
    const result = await withRetry(
      async (attempt) => {
        attempts.push(attempt);
        const failure = failures.shift();
        if (failure) throw failure;
        return 'made';
      },
      { label: 'Fn', clock },
    );
    expect(result).toBe('made');
    expect(attempts).toEqual([0, 1, 2, 3]);
    expect(clock.slept).toEqual([250, 1000, 500]);
  });

  it('rethrows a non-retryable error at once, with no give-up line', async () => {
    const lines: string[] = [];
    const error = sdkError('ValidationException', 'bad', 400);
    await expect(
      withRetry(
        async () => {
          throw error;
        },
        { label: 'Fn', clock: fakeClock(), onGiveUp: (line) => lines.push(line) },
      ),
    ).rejects.toBe(error);
    expect(lines).toEqual([]);
  });

  it('gives up after the budget with one line naming it', async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const error = Object.assign(sdkError('InvalidParameterValueException', 'cannot be assumed', 400), {
      $metadata: { httpStatusCode: 400, requestId: 'req-1' },
    });
    await expect(
      withRetry(
        async () => {
          throw error;
        },
        { label: 'Fn', clock, onGiveUp: (line) => lines.push(line) },
      ),
    ).rejects.toBe(error);
    expect(clock.slept).toEqual(IAM_PROPAGATION_SCHEDULE_MS);
    expect(lines).toEqual([
      'Fn: gave up after 26 IAM-propagation retries over 47.75s of propagation backoff (the full propagation budget) - cannot be assumed [name=InvalidParameterValueException http=400 requestId=req-1]',
    ]);
  });
});
