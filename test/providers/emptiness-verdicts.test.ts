import { describe, expect, it } from 'vitest';
import type { EmptinessVerdict } from '../../src/resource-types/index.js';
import {
  bucketVerdict,
  logGroupVerdict,
  PROBE_RETRY_DELAYS_MS,
  withProbeRetry,
  type ProbeAnswer,
} from '../../src/providers/emptiness/index.js';
import type { Clock } from '../../src/providers/clock.js';

const page = (entries: number | undefined, continued = false): ProbeAnswer => ({
  kind: 'page',
  entries,
  continued,
});

describe('the S3 emptiness probe verdicts (spec 002, "The emptiness probes")', () => {
  it.each<[string, ProbeAnswer, EmptinessVerdict, boolean]>([
    ['a page holding a version or delete marker is non-empty', page(1), 'non-empty', false],
    ['an empty page with no continuation marker is empty', page(0), 'empty', false],
    [
      'a page that simply OMITS the version and delete-marker lists counts as empty',
      page(undefined),
      'empty',
      false,
    ],
    [
      'a page carrying a continuation marker with no entry is refused rather than passed',
      page(0, true),
      'non-empty',
      true,
    ],
    [
      'a page omitting both lists but carrying a continuation marker is refused too',
      page(undefined, true),
      'non-empty',
      true,
    ],
    [
      'a bucket AWS reports as not existing is an answer: it passes through silently',
      { kind: 'not-found', regionConfirmed: true },
      'not-found',
      false,
    ],
    [
      'a probe that fails fails open, with a warning',
      { kind: 'failed', reason: 'AccessDenied: no s3:ListBucketVersions' },
      'probe-failed',
      true,
    ],
  ])('%s', (_name, answer, verdict, warns) => {
    const result = bucketVerdict('Bucket', answer);
    expect(result.verdict).toBe(verdict);
    expect(result.warning !== undefined).toBe(warns);
  });

  it('the failure warning says the recreate proceeds and names the flag', () => {
    expect(bucketVerdict('Bucket', { kind: 'failed', reason: 'AccessDenied: x' }).warning).toBe(
      "Bucket: the bucket's emptiness probe failed (AccessDenied: x); the replacement proceeds without " +
        '--force-stateful-recreation. Pass that flag if the bucket might hold data.',
    );
  });
});

describe('the log-group emptiness probe verdicts (spec 002)', () => {
  it.each<[string, ProbeAnswer, EmptinessVerdict, boolean]>([
    ['a present, empty stream list and no continuation token clears the guard', page(0), 'empty', false],
    ['a group holding a stream (even an empty one) is non-empty', page(1), 'non-empty', false],
    [
      'a response with no stream list at all has not settled the question: stateful',
      page(undefined),
      'probe-failed',
      true,
    ],
    [
      'an empty page that still carries a nextToken has not settled it: stateful',
      page(0, true),
      'probe-failed',
      true,
    ],
    [
      'ResourceNotFoundException from the recorded region: provably holds no events',
      { kind: 'not-found', regionConfirmed: true },
      'not-found',
      false,
    ],
    [
      'ResourceNotFoundException when the region check cannot be satisfied: not provably empty',
      { kind: 'not-found', regionConfirmed: false },
      'probe-failed',
      true,
    ],
    [
      'the log-group probe fails CLOSED: an error treats the group as stateful',
      { kind: 'failed', reason: 'AccessDeniedException: denied' },
      'probe-failed',
      true,
    ],
  ])('%s', (_name, answer, verdict, warns) => {
    const result = logGroupVerdict('Logs', answer);
    expect(result.verdict).toBe(verdict);
    expect(result.warning !== undefined).toBe(warns);
  });
});

describe('probe retries (spec 002: throttling retried up to three times, at most 3.5 s per target)', () => {
  function recordingClock(): Clock & { slept: number[] } {
    const slept: number[] = [];
    return { slept, now: () => 0, sleep: async (ms) => void slept.push(ms) };
  }
  const throttle = (status: number, name = 'Throttling') =>
    Object.assign(new Error('slow down'), { name, $metadata: { httpStatusCode: status } });

  it.each([
    ['a throttling error code', throttle(400, 'ThrottlingException')],
    ['HTTP 429', throttle(429, 'Unknown')],
    ['HTTP 503', throttle(503, 'SlowDown')],
  ])('retries %s with exponential backoff, then gives up with the last error', async (_name, error) => {
    const clock = recordingClock();
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(error);
    };
    await expect(withProbeRetry(failing, clock)).rejects.toBe(error);
    expect(calls).toBe(4);
    expect(clock.slept).toEqual([...PROBE_RETRY_DELAYS_MS]);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3500);
  });

  it('answers as soon as a retry succeeds', async () => {
    const clock = recordingClock();
    let calls = 0;
    const result = await withProbeRetry(async () => {
      calls += 1;
      if (calls < 3) throw throttle(429);
      return 'page';
    }, clock);
    expect(result).toBe('page');
    expect(clock.slept).toEqual([500, 1000]);
  });

  it('never retries any other failure: it is either an answer or something a retry will not change', async () => {
    const clock = recordingClock();
    let calls = 0;
    const denied = Object.assign(new Error('denied'), {
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(
      withProbeRetry(() => {
        calls += 1;
        return Promise.reject(denied);
      }, clock),
    ).rejects.toBe(denied);
    expect(calls).toBe(1);
    expect(clock.slept).toEqual([]);
  });
});
