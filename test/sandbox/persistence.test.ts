import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  ListBucketsCommand,
  ListObjectVersionsCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure, withSandbox } from './helpers.js';

describe('sandbox persistence', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cdkd-sandbox-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps buckets, objects, versions and policies across a restart on the same data dir', async () => {
    const policy = JSON.stringify({ Version: '2012-10-17', Statement: [] });
    const first = await withSandbox({ dataDir });
    await first.s3.send(new CreateBucketCommand({ Bucket: 'durable' }));
    await first.s3.send(
      new PutBucketVersioningCommand({ Bucket: 'durable', VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await first.s3.send(new PutBucketPolicyCommand({ Bucket: 'durable', Policy: policy }));
    const v1 = await first.s3.send(
      new PutObjectCommand({ Bucket: 'durable', Key: 'dir/doc.json', Body: '{"v":1}' }),
    );
    await first.s3.send(new PutObjectCommand({ Bucket: 'durable', Key: 'dir/doc.json', Body: '{"v":2}' }));
    await first.s3.send(new PutObjectCommand({ Bucket: 'durable', Key: 'gone', Body: 'x' }));
    await first.s3.send(new DeleteObjectCommand({ Bucket: 'durable', Key: 'gone' }));
    await first.s3.send(new CreateBucketCommand({ Bucket: 'short-lived' }));
    await first.s3.send(new DeleteBucketCommand({ Bucket: 'short-lived' }));
    await first.close();

    const second = await withSandbox({ dataDir });
    try {
      const buckets = await second.s3.send(new ListBucketsCommand({}));
      expect(buckets.Buckets?.map((b) => b.Name)).toEqual(['durable']);
      const current = await second.s3.send(new GetObjectCommand({ Bucket: 'durable', Key: 'dir/doc.json' }));
      expect(await current.Body!.transformToString()).toBe('{"v":2}');
      const old = await second.s3.send(
        new GetObjectCommand({ Bucket: 'durable', Key: 'dir/doc.json', VersionId: v1.VersionId }),
      );
      expect(await old.Body!.transformToString()).toBe('{"v":1}');
      expect((await second.s3.send(new GetBucketVersioningCommand({ Bucket: 'durable' }))).Status).toBe(
        'Enabled',
      );
      expect((await second.s3.send(new GetBucketPolicyCommand({ Bucket: 'durable' }))).Policy).toBe(policy);
      expect(
        await failure(second.s3.send(new GetObjectCommand({ Bucket: 'durable', Key: 'gone' }))),
      ).toMatchObject({
        name: 'NoSuchKey',
      });
      const versions = await second.s3.send(new ListObjectVersionsCommand({ Bucket: 'durable' }));
      expect(versions.Versions).toHaveLength(3);
      expect(versions.DeleteMarkers).toHaveLength(1);
      // A new version after the restart sorts as the newest.
      await second.s3.send(new PutObjectCommand({ Bucket: 'durable', Key: 'dir/doc.json', Body: '{"v":3}' }));
      const after = await second.s3.send(new GetObjectCommand({ Bucket: 'durable', Key: 'dir/doc.json' }));
      expect(await after.Body!.transformToString()).toBe('{"v":3}');
    } finally {
      await second.close();
    }
  });

  it('discards what a killed process left half-written: temp files and unreferenced bodies', async () => {
    const first = await withSandbox({ dataDir });
    await first.s3.send(new CreateBucketCommand({ Bucket: 'crashy' }));
    await first.s3.send(new PutObjectCommand({ Bucket: 'crashy', Key: 'kept', Body: 'kept' }));
    await first.close();
    const blobDir = join(dataDir, 's3', 'blobs', 'crashy');
    const objectDir = join(dataDir, 's3', 'objects', 'crashy');
    await writeFile(join(blobDir, 'feedface.blob'), 'orphan body');
    await writeFile(join(objectDir, 'torn.json.1234.tmp'), '{"half":');

    const second = await withSandbox({ dataDir });
    try {
      const kept = await second.s3.send(new GetObjectCommand({ Bucket: 'crashy', Key: 'kept' }));
      expect(await kept.Body!.transformToString()).toBe('kept');
      expect(await readdir(blobDir)).toHaveLength(1);
      expect((await readdir(objectDir)).some((name) => name.endsWith('.tmp'))).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('overwrites in place: an unversioned key keeps one document and one body on disk', async () => {
    const sandbox = await withSandbox({ dataDir });
    try {
      await sandbox.s3.send(new CreateBucketCommand({ Bucket: 'overwrites' }));
      for (const body of ['a', 'b', 'c']) {
        await sandbox.s3.send(new PutObjectCommand({ Bucket: 'overwrites', Key: 'same', Body: body }));
      }
      expect(await readdir(join(dataDir, 's3', 'objects', 'overwrites'))).toHaveLength(1);
      expect(await readdir(join(dataDir, 's3', 'blobs', 'overwrites'))).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
  });
});
