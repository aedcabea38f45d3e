import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
  PutBucketVersioningCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, withSandbox } from './helpers.js';

describe('S3 versioning', () => {
  let s3: S3Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ s3, close } = await withSandbox());
  });
  afterAll(() => close());

  async function versionedBucket(Bucket: string): Promise<void> {
    await s3.send(new CreateBucketCommand({ Bucket }));
    await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  }

  it('reports no status until versioning is configured, then Enabled / Suspended', async () => {
    const Bucket = 'versioning-status';
    await s3.send(new CreateBucketCommand({ Bucket }));
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBeUndefined();
    await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }));
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBe('Enabled');
    await s3.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Suspended' } }),
    );
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBe('Suspended');
  });

  it('keeps every version, readable by VersionId', async () => {
    const Bucket = 'versions-kept';
    await versionedBucket(Bucket);
    const v1 = await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'one' }));
    const v2 = await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'two' }));
    expect(v1.VersionId).toBeDefined();
    expect(v2.VersionId).not.toBe(v1.VersionId);
    const old = await s3.send(new GetObjectCommand({ Bucket, Key: 'doc', VersionId: v1.VersionId }));
    expect(await old.Body!.transformToString()).toBe('one');
    expect(old.VersionId).toBe(v1.VersionId);
    const current = await s3.send(new GetObjectCommand({ Bucket, Key: 'doc' }));
    expect(await current.Body!.transformToString()).toBe('two');
    const missing = await failure(
      s3.send(new GetObjectCommand({ Bucket, Key: 'doc', VersionId: 'nosuchversion' })),
    );
    expect(missing).toMatchObject({ name: 'NoSuchVersion', status: 404 });
  });

  it('DeleteObject adds a delete marker; the older versions survive and ListObjectVersions shows all', async () => {
    const Bucket = 'versions-marked';
    await versionedBucket(Bucket);
    const v1 = await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'one' }));
    const v2 = await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'two' }));
    const deleted = await s3.send(new DeleteObjectCommand({ Bucket, Key: 'doc' }));
    expect(deleted.DeleteMarker).toBe(true);
    expect(deleted.VersionId).toBeDefined();

    expect(await failure(s3.send(new GetObjectCommand({ Bucket, Key: 'doc' })))).toMatchObject({
      name: 'NoSuchKey',
      status: 404,
    });
    expect((await s3.send(new ListObjectsV2Command({ Bucket }))).KeyCount).toBe(0);
    const viaMarker = await failure(
      s3.send(new HeadObjectCommand({ Bucket, Key: 'doc', VersionId: deleted.VersionId })),
    );
    expect(viaMarker.status).toBe(405);

    const listing = await s3.send(new ListObjectVersionsCommand({ Bucket }));
    expect(listing.Versions?.map((v) => [v.VersionId, v.IsLatest])).toEqual([
      [v2.VersionId, false],
      [v1.VersionId, false],
    ]);
    expect(listing.DeleteMarkers?.map((m) => [m.VersionId, m.IsLatest])).toEqual([[deleted.VersionId, true]]);

    // Deleting the marker by version id brings the object back.
    await s3.send(new DeleteObjectCommand({ Bucket, Key: 'doc', VersionId: deleted.VersionId }));
    const restored = await s3.send(new GetObjectCommand({ Bucket, Key: 'doc' }));
    expect(await restored.Body!.transformToString()).toBe('two');
  });

  it('pages ListObjectVersions with key and version-id markers', async () => {
    const Bucket = 'versions-paged';
    await versionedBucket(Bucket);
    const ids: string[] = [];
    for (const body of ['a1', 'a2', 'a3']) {
      ids.unshift((await s3.send(new PutObjectCommand({ Bucket, Key: 'a', Body: body }))).VersionId!);
    }
    ids.push((await s3.send(new PutObjectCommand({ Bucket, Key: 'b', Body: 'b1' }))).VersionId!);

    const seen: string[] = [];
    let KeyMarker: string | undefined;
    let VersionIdMarker: string | undefined;
    for (;;) {
      const page = await s3.send(
        new ListObjectVersionsCommand({ Bucket, MaxKeys: 2, KeyMarker, VersionIdMarker }),
      );
      seen.push(...(page.Versions ?? []).map((v) => v.VersionId!));
      if (!page.IsTruncated) break;
      KeyMarker = page.NextKeyMarker;
      VersionIdMarker = page.NextVersionIdMarker;
    }
    expect(seen).toEqual(ids);
  });

  it('a versioned bucket is not empty until every version is deleted', async () => {
    const Bucket = 'versions-emptied';
    await versionedBucket(Bucket);
    await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'x' }));
    await s3.send(new DeleteObjectCommand({ Bucket, Key: 'doc' }));
    expect(await failure(s3.send(new DeleteBucketCommand({ Bucket })))).toMatchObject({
      name: 'BucketNotEmpty',
    });

    const versions = await s3.send(new ListObjectVersionsCommand({ Bucket }));
    const all = [...(versions.Versions ?? []), ...(versions.DeleteMarkers ?? [])];
    const result = await s3.send(
      new DeleteObjectsCommand({
        Bucket,
        Delete: { Objects: all.map((v) => ({ Key: v.Key!, VersionId: v.VersionId! })) },
      }),
    );
    expect(result.Deleted).toHaveLength(2);
    expect(result.Deleted?.filter((d) => d.DeleteMarker)).toHaveLength(1);
    await s3.send(new DeleteBucketCommand({ Bucket }));
  });

  it('a suspended bucket writes and overwrites the "null" version', async () => {
    const Bucket = 'versions-suspended';
    await versionedBucket(Bucket);
    const kept = await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'versioned' }));
    await s3.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Suspended' } }),
    );
    const first = await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'null one' }));
    await s3.send(new PutObjectCommand({ Bucket, Key: 'doc', Body: 'null two' }));
    expect(first.VersionId).toBe('null');
    const listing = await s3.send(new ListObjectVersionsCommand({ Bucket }));
    expect(listing.Versions?.map((v) => v.VersionId)).toEqual(['null', kept.VersionId]);
    const current = await s3.send(new GetObjectCommand({ Bucket, Key: 'doc', VersionId: 'null' }));
    expect(await current.Body!.transformToString()).toBe('null two');
  });
});
