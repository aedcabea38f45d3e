import { CloudWatchLogsClient, DescribeLogStreamsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { SINGLE_ATTEMPT, type AwsClients } from '../../aws/client-factory.js';
import { awsErrorCode, classifyAwsError } from '../../aws/error-class.js';
import { messageOf } from '../../errors.js';
import type { Clock } from '../clock.js';
import { withProbeRetry } from './throttle-retry.js';
import { bucketVerdict, logGroupVerdict, type ProbeAnswer, type ProbeResult } from './verdicts.js';

/** A conditionally stateful resource about to be recreated, as its state record names it. */
export interface ProbeTarget {
  logicalId: string;
  type: string;
  physicalId: string;
  /** The region state records for the resource, if any. */
  recordedRegion?: string;
}

export interface ProbeContext {
  clients: AwsClients;
  /** The stack's deploy region: where the probe asks. */
  region: string;
  clock?: Clock;
}

/** The SDK's own retries would stack on the probe's schedule: one attempt per call. */

/**
 * Spec 002's pre-flight emptiness probe for an S3 bucket or a CloudWatch Logs group: one
 * single-page read, its answer turned into a verdict. Other types are never probed.
 */
export async function probeEmptiness(target: ProbeTarget, context: ProbeContext): Promise<ProbeResult> {
  switch (target.type) {
    case 'AWS::S3::Bucket':
      return bucketVerdict(target.logicalId, await bucketAnswer(target, context));
    case 'AWS::Logs::LogGroup':
      return logGroupVerdict(target.logicalId, await logGroupAnswer(target, context));
    default:
      throw new Error(`no emptiness probe for ${target.type}`);
  }
}

async function bucketAnswer(target: ProbeTarget, context: ProbeContext): Promise<ProbeAnswer> {
  try {
    const s3 = await context.clients.s3(context.region, SINGLE_ATTEMPT);
    const page = await withProbeRetry(
      () => s3.send(new ListObjectVersionsCommand({ Bucket: target.physicalId, MaxKeys: 1 })),
      context.clock,
    );
    const lists = [page.Versions, page.DeleteMarkers].filter((list) => list !== undefined);
    return {
      kind: 'page',
      entries: lists.length === 0 ? undefined : lists.reduce((sum, list) => sum + list.length, 0),
      continued:
        page.IsTruncated === true ||
        page.NextKeyMarker !== undefined ||
        page.NextVersionIdMarker !== undefined,
    };
  } catch (error) {
    if (awsErrorCode(error) === 'NoSuchBucket') return { kind: 'not-found', regionConfirmed: true };
    return { kind: 'failed', reason: reasonOf(error) };
  }
}

async function logGroupAnswer(target: ProbeTarget, context: ProbeContext): Promise<ProbeAnswer> {
  try {
    const logs = await context.clients.client(CloudWatchLogsClient, context.region, SINGLE_ATTEMPT);
    try {
      const page = await withProbeRetry(
        () => logs.send(new DescribeLogStreamsCommand({ logGroupName: target.physicalId, limit: 1 })),
        context.clock,
      );
      return { kind: 'page', entries: page.logStreams?.length, continued: page.nextToken !== undefined };
    } catch (error) {
      if (awsErrorCode(error) !== 'ResourceNotFoundException') throw error;
      // A not-found from another region says nothing about the log group.
      const asked = await logs.config.region();
      return { kind: 'not-found', regionConfirmed: asked === target.recordedRegion };
    }
  } catch (error) {
    return { kind: 'failed', reason: reasonOf(error) };
  }
}

function reasonOf(error: unknown): string {
  const code = awsErrorCode(error);
  const kind = classifyAwsError(error) === 'throttling' ? 'still throttled after 3 retries: ' : '';
  return `${kind}${code && code !== 'Error' ? `${code}: ` : ''}${messageOf(error)}`;
}
