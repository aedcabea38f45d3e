import { CloudWatchLogsClient, CreateLogStreamCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DeleteObjectCommand, HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { DataLossConfirmation } from '../../src/engine/stack-request.js';
import { probeEmptiness } from '../../src/providers/emptiness/index.js';
import type { Clock } from '../../src/providers/clock.js';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

// Spec 002's pre-flight emptiness probes on the sandbox: an empty bucket or log group is
// replaced without --force-stateful-recreation, one holding data is refused before anything
// is touched, a failed bucket probe fails open and a failed log-group probe fails closed.
const h = useSandboxEngine('emptiness-probes');

const bucket = (name: string, versioned = false) => ({
  Bucket: {
    Type: 'AWS::S3::Bucket',
    Properties: {
      BucketName: name,
      ...(versioned ? { VersioningConfiguration: { Status: 'Enabled' } } : {}),
    },
  },
});
const logGroup = (name: string) => ({
  Logs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: name } },
});

async function calls(): Promise<Record<string, { count: number }>> {
  const response = await fetch(`${h.url}/_sandbox/calls`);
  return ((await response.json()) as { calls: Record<string, { count: number }> }).calls;
}

async function bucketExists(name: string): Promise<boolean> {
  try {
    await (await h.clients.s3()).send(new HeadBucketCommand({ Bucket: name }));
    return true;
  } catch {
    return false;
  }
}

async function physicalId(stack: string, logicalId: string): Promise<string | undefined> {
  const state = await h.backend.store.read({ stackName: stack, region: REGION });
  return state?.document.resources[logicalId]?.physicalId;
}

describe('S3 bucket probe: ListObjectVersions(MaxKeys=1)', () => {
  it('a versioned bucket whose only key is soft-deleted still holds versions: refused, nothing touched', async () => {
    await h.deploy('VersionedBucket', bucket('probe-versioned-a', true));
    const s3 = await h.clients.s3();
    await s3.send(new PutObjectCommand({ Bucket: 'probe-versioned-a', Key: 'k', Body: 'data' }));
    await s3.send(new DeleteObjectCommand({ Bucket: 'probe-versioned-a', Key: 'k' }));

    await expect(h.deploy('VersionedBucket', bucket('probe-versioned-b', true))).rejects.toMatchObject({
      code: 'STATEFUL_REPLACE_BLOCKED',
      message: expect.stringContaining('Bucket (AWS::S3::Bucket)'),
    });
    expect(await bucketExists('probe-versioned-b')).toBe(false);
    expect(await physicalId('VersionedBucket', 'Bucket')).toBe('probe-versioned-a');
  });

  it('an empty bucket is replaced without --force-stateful-recreation, after one single-page probe', async () => {
    await h.deploy('EmptyBucket', bucket('probe-empty-a'));
    await fetch(`${h.url}/_sandbox/calls`, { method: 'DELETE' });
    await h.deploy('EmptyBucket', bucket('probe-empty-b'));
    expect(await physicalId('EmptyBucket', 'Bucket')).toBe('probe-empty-b');
    expect(await bucketExists('probe-empty-a')).toBe(false);
    expect((await calls())['s3:ListObjectVersions']?.count).toBe(1);
  });

  it('a failed probe fails open: the recreate proceeds, with a warning naming the flag', async () => {
    await h.deploy('DeniedBucket', bucket('probe-denied-a'));
    await h.addFault({
      service: 's3',
      operation: 'ListObjectVersions',
      errorCode: 'AccessDenied',
      httpStatus: 403,
      message: 'Access Denied',
    });
    await h.deploy('DeniedBucket', bucket('probe-denied-b'));
    expect(await physicalId('DeniedBucket', 'Bucket')).toBe('probe-denied-b');
    const warnings = h.events.flatMap((event) => (event.kind === 'warning' ? [event.message] : []));
    expect(warnings).toContainEqual(
      expect.stringContaining("Bucket: the bucket's emptiness probe failed (AccessDenied"),
    );
    expect(warnings).toContainEqual(expect.stringContaining('UNKNOWN: if Bucket holds data'));
  });

  it('a throttled probe is retried and then answers', async () => {
    await h.deploy('ThrottledBucket', bucket('probe-throttled-a'));
    await h.addFault({
      service: 's3',
      operation: 'ListObjectVersions',
      errorCode: 'SlowDown',
      httpStatus: 503,
      every: true,
      count: 2,
    });
    await fetch(`${h.url}/_sandbox/calls`, { method: 'DELETE' });
    await h.deploy('ThrottledBucket', bucket('probe-throttled-b'));
    expect(await physicalId('ThrottledBucket', 'Bucket')).toBe('probe-throttled-b');
    expect((await calls())['s3:ListObjectVersions']?.count).toBe(3);
  });

  it('throttling that outlives three retries lands in the per-type behaviour (fails open)', async () => {
    await h.addFault({
      service: 's3',
      operation: 'ListObjectVersions',
      errorCode: 'SlowDown',
      httpStatus: 503,
      every: true,
      count: 4,
    });
    await fetch(`${h.url}/_sandbox/calls`, { method: 'DELETE' });
    const slept: number[] = [];
    const clock: Clock = { now: () => 0, sleep: async (ms) => void slept.push(ms) };
    const result = await probeEmptiness(
      { logicalId: 'B', type: 'AWS::S3::Bucket', physicalId: 'probe-empty-b', recordedRegion: REGION },
      { clients: h.clients, region: REGION, clock },
    );
    expect(result.verdict).toBe('probe-failed');
    expect(slept).toEqual([500, 1000, 2000]);
    expect((await calls())['s3:ListObjectVersions']?.count).toBe(4);
  });

  it('--force-stateful-recreation skips the probe and asks before the DATA LOSS recreate', async () => {
    await h.deploy('ForcedBucket', bucket('probe-forced-a'));
    await fetch(`${h.url}/_sandbox/calls`, { method: 'DELETE' });
    const asked: DataLossConfirmation[] = [];
    await h.deploy(
      'ForcedBucket',
      bucket('probe-forced-b'),
      { forceStatefulRecreation: true },
      async (question) => {
        asked.push(question.data as DataLossConfirmation);
        return true;
      },
    );
    expect((await calls())['s3:ListObjectVersions']).toBeUndefined();
    expect(asked).toEqual([
      {
        stackName: 'ForcedBucket',
        rows: [expect.objectContaining({ logicalId: 'Bucket', outcome: 'data-loss' })],
      },
    ]);
  });

  it('a refused confirmation stops the deploy with nothing touched', async () => {
    await h.deploy('RefusedBucket', bucket('probe-refused-a'));
    const refusal = new Error('cancelled');
    await expect(
      h.deploy('RefusedBucket', bucket('probe-refused-b'), { forceStatefulRecreation: true }, () =>
        Promise.reject(refusal),
      ),
    ).rejects.toBe(refusal);
    expect(await bucketExists('probe-refused-b')).toBe(false);
    expect(await physicalId('RefusedBucket', 'Bucket')).toBe('probe-refused-a');
  });

  it('a "no" to the data-loss question cancels the deploy with nothing touched', async () => {
    await h.deploy('DeclinedBucket', bucket('probe-declined-a'));
    await expect(
      h.deploy(
        'DeclinedBucket',
        bucket('probe-declined-b'),
        { forceStatefulRecreation: true },
        async () => false,
      ),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await bucketExists('probe-declined-b')).toBe(false);
    expect(await physicalId('DeclinedBucket', 'Bucket')).toBe('probe-declined-a');
  });
});

describe('log group probe: DescribeLogStreams(limit=1)', () => {
  it('a log group holding a stream is refused without the flag', async () => {
    await h.deploy('StreamGroup', logGroup('/probe/streams-a'));
    const logs = await h.clients.client(CloudWatchLogsClient, REGION);
    await logs.send(new CreateLogStreamCommand({ logGroupName: '/probe/streams-a', logStreamName: 's' }));
    await expect(h.deploy('StreamGroup', logGroup('/probe/streams-b'))).rejects.toMatchObject({
      code: 'STATEFUL_REPLACE_BLOCKED',
    });
    expect(await physicalId('StreamGroup', 'Logs')).toBe('/probe/streams-a');
  });

  it('a log group with no stream is replaced without the flag', async () => {
    await h.deploy('EmptyGroup', logGroup('/probe/empty-a'));
    await h.deploy('EmptyGroup', logGroup('/probe/empty-b'));
    expect(await physicalId('EmptyGroup', 'Logs')).toBe('/probe/empty-b');
  });

  it('a failed probe fails closed: refused, naming --force-stateful-recreation', async () => {
    await h.deploy('DeniedGroup', logGroup('/probe/denied-a'));
    await h.addFault({
      service: 'logs',
      operation: 'DescribeLogStreams',
      errorCode: 'AccessDeniedException',
      httpStatus: 400,
    });
    await expect(h.deploy('DeniedGroup', logGroup('/probe/denied-b'))).rejects.toMatchObject({
      code: 'STATEFUL_REPLACE_BLOCKED',
      hint: expect.stringContaining('--force-stateful-recreation'),
    });
    expect(h.events).toContainEqual(
      expect.objectContaining({
        kind: 'warning',
        message: expect.stringContaining("the log group's emptiness probe failed (AccessDeniedException"),
      }),
    );
  });

  it('a not-found from the region state records is an answer: the group provably holds no events', async () => {
    const result = await probeEmptiness(
      {
        logicalId: 'L',
        type: 'AWS::Logs::LogGroup',
        physicalId: '/probe/never-made',
        recordedRegion: REGION,
      },
      { clients: h.clients, region: REGION },
    );
    expect(result).toEqual({ verdict: 'not-found' });
  });

  it('a not-found asked in another region than the recorded one is not trusted', async () => {
    const result = await probeEmptiness(
      {
        logicalId: 'L',
        type: 'AWS::Logs::LogGroup',
        physicalId: '/probe/never-made',
        recordedRegion: 'eu-west-1',
      },
      { clients: h.clients, region: REGION },
    );
    expect(result.verdict).toBe('probe-failed');
  });
});
