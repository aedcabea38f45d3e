import type { EmptinessVerdict } from '../../resource-types/index.js';

/**
 * What one emptiness probe call answered, reduced to what spec 002 ("The emptiness probes")
 * decides on. `entries` is undefined when the response omitted its list(s) altogether.
 */
export type ProbeAnswer =
  | { kind: 'page'; entries: number | undefined; continued: boolean }
  | { kind: 'not-found'; regionConfirmed: boolean }
  | { kind: 'failed'; reason: string };

/** A verdict, and the warning cdkd logs when the probe did not settle the question. */
export interface ProbeResult {
  verdict: EmptinessVerdict;
  warning?: string;
}

/**
 * s3:ListObjectVersions(MaxKeys=1). Omitted lists are how S3 answers for an empty bucket;
 * a continuation marker with no entry is an unfinished listing, refused rather than passed;
 * a failure fails open (the guard does not fire, the plan shows the row as UNKNOWN).
 */
export function bucketVerdict(logicalId: string, answer: ProbeAnswer): ProbeResult {
  switch (answer.kind) {
    case 'page':
      if ((answer.entries ?? 0) > 0) return { verdict: 'non-empty' };
      if (answer.continued) {
        return {
          verdict: 'non-empty',
          warning:
            `${logicalId}: the bucket's emptiness probe returned a continuation marker with no entry, ` +
            'so the listing is unfinished; cdkd treats the bucket as holding data.',
        };
      }
      return { verdict: 'empty' };
    case 'not-found':
      return { verdict: 'not-found' };
    case 'failed':
      return {
        verdict: 'probe-failed',
        warning:
          `${logicalId}: the bucket's emptiness probe failed (${answer.reason}); the replacement proceeds ` +
          'without --force-stateful-recreation. Pass that flag if the bucket might hold data.',
      };
  }
}

/**
 * logs:DescribeLogStreams(limit=1). Only a present, empty stream list with no continuation
 * token proves a group empty; every other answer, and every failure, fails closed. A
 * not-found is an answer only once the client's region is confirmed as the recorded one.
 */
export function logGroupVerdict(logicalId: string, answer: ProbeAnswer): ProbeResult {
  const unsettled = (why: string): ProbeResult => ({
    verdict: 'probe-failed',
    warning: `${logicalId}: ${why}; cdkd treats the log group as holding data.`,
  });
  switch (answer.kind) {
    case 'page':
      if ((answer.entries ?? 0) > 0) return { verdict: 'non-empty' };
      if (answer.entries === undefined) return unsettled('the log group probe returned no stream list');
      if (answer.continued) {
        return unsettled('the log group probe returned an empty page that still carries a nextToken');
      }
      return { verdict: 'empty' };
    case 'not-found':
      if (answer.regionConfirmed) return { verdict: 'not-found' };
      return unsettled(
        "the log group probe answered not-found, but its client's region is not the one state records for the log group",
      );
    case 'failed':
      return unsettled(`the log group's emptiness probe failed (${answer.reason})`);
  }
}
