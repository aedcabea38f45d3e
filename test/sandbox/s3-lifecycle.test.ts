import {
  CreateBucketCommand,
  ListObjectVersionsCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { admin, failure, withSandbox } from './helpers.js';

// S3 runs lifecycle rules once a day; the sandbox runs them at each midnight UTC of its clock.
describe('S3 lifecycle: NoncurrentVersionExpiration', () => {
  let sandbox: Sandbox;
  let s3: S3Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ sandbox, s3, close } = await withSandbox());
    await admin(sandbox, 'PUT', 'clock', { set: '2030-01-01T10:00:00Z' });
  });
  afterAll(() => close());

  async function bucketWith(Bucket: string, newer: number | undefined, Prefix = ''): Promise<void> {
    await s3.send(new CreateBucketCommand({ Bucket }));
    await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }));
    await s3.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket,
        LifecycleConfiguration: {
          Rules: [
            {
              ID: 'history',
              Status: 'Enabled',
              Filter: { Prefix },
              NoncurrentVersionExpiration: {
                NoncurrentDays: 1,
                ...(newer !== undefined && { NewerNoncurrentVersions: newer }),
              },
            },
          ],
        },
      }),
    );
  }

  async function writes(Bucket: string, Key: string, count: number): Promise<void> {
    for (let n = 1; n <= count; n += 1) await s3.send(new PutObjectCommand({ Bucket, Key, Body: `v${n}` }));
  }

  async function versionsOf(Bucket: string, Key: string): Promise<number> {
    const page = await s3.send(new ListObjectVersionsCommand({ Bucket, Prefix: Key }));
    return (page.Versions ?? []).filter((version) => version.Key === Key).length;
  }

  it('keeps the newest N noncurrent versions and the current one, once the days have passed', async () => {
    await bucketWith('history-kept', 2);
    await writes('history-kept', 'state.json', 6);
    expect(await versionsOf('history-kept', 'state.json')).toBe(6);
    // Noncurrent since 10:00 on Jan 1: due at the midnight after Jan 2 10:00 (Jan 3 00:00).
    await admin(sandbox, 'PUT', 'clock', { advance: 'PT37H' });
    expect(await versionsOf('history-kept', 'state.json')).toBe(6);
    await admin(sandbox, 'PUT', 'clock', { advance: 'PT1H' });
    expect(await versionsOf('history-kept', 'state.json')).toBe(3);
  });

  it('expires every noncurrent version without NewerNoncurrentVersions, and only under the prefix', async () => {
    await bucketWith('history-prefix', undefined, 'cdkd/');
    await writes('history-prefix', 'cdkd/a', 3);
    await writes('history-prefix', 'other/b', 3);
    await admin(sandbox, 'PUT', 'clock', { advance: 'P3D' });
    expect(await versionsOf('history-prefix', 'cdkd/a')).toBe(1);
    expect(await versionsOf('history-prefix', 'other/b')).toBe(3);
  });

  it('refuses NewerNoncurrentVersions and NoncurrentDays of 0, takes more than 100 versions (as the CDK integ tests set)', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'history-invalid' }));
    const put = (expiration: { NoncurrentDays: number; NewerNoncurrentVersions?: number }) =>
      s3.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket: 'history-invalid',
          LifecycleConfiguration: {
            Rules: [
              { ID: 'x', Status: 'Enabled', Filter: { Prefix: '' }, NoncurrentVersionExpiration: expiration },
            ],
          },
        }),
      );
    expect((await failure(put({ NoncurrentDays: 1, NewerNoncurrentVersions: 0 }))).name).toBe(
      'InvalidArgument',
    );
    await put({ NoncurrentDays: 1, NewerNoncurrentVersions: 123 });
    expect((await failure(put({ NoncurrentDays: 0 }))).name).toBe('InvalidArgument');
  });
});
