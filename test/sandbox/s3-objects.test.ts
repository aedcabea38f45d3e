import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, withSandbox } from './helpers.js';

describe('S3 objects', () => {
  let s3: S3Client;
  let close: () => Promise<void>;
  const Bucket = 'object-tests';

  beforeAll(async () => {
    ({ s3, close } = await withSandbox());
    await s3.send(new CreateBucketCommand({ Bucket }));
  });
  afterAll(() => close());

  it('round-trips body, content type, user metadata and the CRC32 checksum the SDK validates', async () => {
    await s3.send(
      new PutObjectCommand({
        Bucket,
        Key: 'docs/readme.txt',
        Body: 'hello sandbox',
        ContentType: 'text/plain',
        Metadata: { owner: 'cdkd' },
      }),
    );
    const got = await s3.send(
      new GetObjectCommand({ Bucket, Key: 'docs/readme.txt', ChecksumMode: 'ENABLED' }),
    );
    expect(await got.Body!.transformToString()).toBe('hello sandbox');
    expect(got.ContentType).toBe('text/plain');
    expect(got.Metadata).toEqual({ owner: 'cdkd' });
    expect(got.ChecksumCRC32).toBeDefined();
    const head = await s3.send(new HeadObjectCommand({ Bucket, Key: 'docs/readme.txt' }));
    expect(head.ContentLength).toBe('hello sandbox'.length);
  });

  it('decodes aws-chunked streaming uploads with a trailing checksum', async () => {
    const payload = Buffer.alloc(200_000, 'abcdefghij');
    await s3.send(
      new PutObjectCommand({
        Bucket,
        Key: 'streamed.bin',
        Body: Readable.from([payload.subarray(0, 70_000), payload.subarray(70_000)]),
        ContentLength: payload.length,
      }),
    );
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'streamed.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(payload)).toBe(true);
  });

  it('refuses a body whose checksum does not match with BadDigest (400)', async () => {
    const error = await failure(
      s3.send(
        new PutObjectCommand({ Bucket, Key: 'corrupt.txt', Body: 'payload', ChecksumCRC32: 'AAAAAA==' }),
      ),
    );
    expect(error).toMatchObject({ name: 'BadDigest', status: 400 });
  });

  it('checks Content-MD5: a wrong digest is BadDigest, a malformed one InvalidDigest', async () => {
    const wrong = Buffer.alloc(16).toString('base64');
    expect(
      await failure(
        s3.send(new PutObjectCommand({ Bucket, Key: 'md5.txt', Body: 'payload', ContentMD5: wrong })),
      ),
    ).toMatchObject({ name: 'BadDigest', status: 400 });
    expect(
      await failure(
        s3.send(new PutObjectCommand({ Bucket, Key: 'md5.txt', Body: 'payload', ContentMD5: 'abc' })),
      ),
    ).toMatchObject({ name: 'InvalidDigest', status: 400 });
  });

  it('answers NoSuchKey (404) on GET and a bodiless 404 NotFound on HEAD', async () => {
    expect(await failure(s3.send(new GetObjectCommand({ Bucket, Key: 'missing' })))).toMatchObject({
      name: 'NoSuchKey',
      status: 404,
    });
    expect(await failure(s3.send(new HeadObjectCommand({ Bucket, Key: 'missing' })))).toMatchObject({
      name: 'NotFound',
      status: 404,
    });
  });

  it('serves byte ranges with 206', async () => {
    await s3.send(new PutObjectCommand({ Bucket, Key: 'digits.txt', Body: '0123456789' }));
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'digits.txt', Range: 'bytes=2-5' }));
    expect(got.$metadata.httpStatusCode).toBe(206);
    expect(got.ContentRange).toBe('bytes 2-5/10');
    expect(await got.Body!.transformToString()).toBe('2345');
  });

  it('copies an object, keeping or replacing its metadata', async () => {
    await s3.send(
      new PutObjectCommand({ Bucket, Key: 'source.txt', Body: 'copy me', Metadata: { origin: 'source' } }),
    );
    const copied = await s3.send(
      new CopyObjectCommand({ Bucket, Key: 'copy/kept.txt', CopySource: `${Bucket}/source.txt` }),
    );
    expect(copied.CopyObjectResult?.ETag).toBe(
      (await s3.send(new HeadObjectCommand({ Bucket, Key: 'source.txt' }))).ETag,
    );
    const kept = await s3.send(new GetObjectCommand({ Bucket, Key: 'copy/kept.txt' }));
    expect(await kept.Body!.transformToString()).toBe('copy me');
    expect(kept.Metadata).toEqual({ origin: 'source' });

    await s3.send(
      new CopyObjectCommand({
        Bucket,
        Key: 'copy/replaced.txt',
        CopySource: `${Bucket}/source.txt`,
        MetadataDirective: 'REPLACE',
        Metadata: { origin: 'replaced' },
      }),
    );
    const replaced = await s3.send(new HeadObjectCommand({ Bucket, Key: 'copy/replaced.txt' }));
    expect(replaced.Metadata).toEqual({ origin: 'replaced' });
  });

  it('refuses copying an object onto itself unchanged, and a missing source with NoSuchKey', async () => {
    const self = await failure(
      s3.send(new CopyObjectCommand({ Bucket, Key: 'source.txt', CopySource: `${Bucket}/source.txt` })),
    );
    expect(self).toMatchObject({ name: 'InvalidRequest', status: 400 });
    const missing = await failure(
      s3.send(new CopyObjectCommand({ Bucket, Key: 'x.txt', CopySource: `${Bucket}/does-not-exist.txt` })),
    );
    expect(missing).toMatchObject({ name: 'NoSuchKey', status: 404 });
  });

  it('deletes many objects at once, reporting each', async () => {
    for (const Key of ['batch/1', 'batch/2', 'batch/3']) {
      await s3.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
    }
    const result = await s3.send(
      new DeleteObjectsCommand({
        Bucket,
        Delete: { Objects: [{ Key: 'batch/1' }, { Key: 'batch/2' }, { Key: 'batch/never-existed' }] },
      }),
    );
    expect(result.Deleted?.map((d) => d.Key).sort()).toEqual(['batch/1', 'batch/2', 'batch/never-existed']);
    const left = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: 'batch/' }));
    expect(left.Contents?.map((c) => c.Key)).toEqual(['batch/3']);
  });

  it('deletes a single object; deleting again still succeeds', async () => {
    await s3.send(new PutObjectCommand({ Bucket, Key: 'single', Body: 'x' }));
    expect((await s3.send(new DeleteObjectCommand({ Bucket, Key: 'single' }))).$metadata.httpStatusCode).toBe(
      204,
    );
    expect((await s3.send(new DeleteObjectCommand({ Bucket, Key: 'single' }))).$metadata.httpStatusCode).toBe(
      204,
    );
    expect(await failure(s3.send(new GetObjectCommand({ Bucket, Key: 'single' })))).toMatchObject({
      name: 'NoSuchKey',
    });
  });
});

describe('ListObjectsV2', () => {
  let s3: S3Client;
  let close: () => Promise<void>;
  const Bucket = 'listing-tests';
  const keys = ['a.txt', 'b/1.txt', 'b/2.txt', 'b/3.txt', 'c/x/1.txt', 'c/y.txt', 'd.txt', 'e.txt'];

  beforeAll(async () => {
    ({ s3, close } = await withSandbox());
    await s3.send(new CreateBucketCommand({ Bucket }));
    for (const Key of keys) await s3.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
  });
  afterAll(() => close());

  it('pages with max-keys and continuation tokens through every key once, in order', async () => {
    const seen: string[] = [];
    let ContinuationToken: string | undefined;
    let pages = 0;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket, MaxKeys: 3, ContinuationToken }));
      expect(page.KeyCount).toBe(page.Contents?.length);
      seen.push(...(page.Contents ?? []).map((c) => c.Key!));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      pages += 1;
    } while (ContinuationToken);
    expect(seen).toEqual(keys);
    expect(pages).toBe(3);
  });

  it('rolls keys up into CommonPrefixes at the delimiter, under a prefix', async () => {
    const top = await s3.send(new ListObjectsV2Command({ Bucket, Delimiter: '/' }));
    expect(top.Contents?.map((c) => c.Key)).toEqual(['a.txt', 'd.txt', 'e.txt']);
    expect(top.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['b/', 'c/']);
    expect(top.KeyCount).toBe(5);

    const nested = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: 'c/', Delimiter: '/' }));
    expect(nested.Contents?.map((c) => c.Key)).toEqual(['c/y.txt']);
    expect(nested.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['c/x/']);
  });

  it('pages across common prefixes without repeating them', async () => {
    const first = await s3.send(new ListObjectsV2Command({ Bucket, Delimiter: '/', MaxKeys: 2 }));
    expect([
      ...(first.Contents ?? []).map((c) => c.Key),
      ...(first.CommonPrefixes ?? []).map((p) => p.Prefix),
    ]).toEqual(['a.txt', 'b/']);
    const second = await s3.send(
      new ListObjectsV2Command({
        Bucket,
        Delimiter: '/',
        MaxKeys: 2,
        ContinuationToken: first.NextContinuationToken,
      }),
    );
    expect(second.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['c/']);
    expect(second.Contents?.map((c) => c.Key)).toEqual(['d.txt']);
  });

  it('starts after a given key', async () => {
    const page = await s3.send(new ListObjectsV2Command({ Bucket, StartAfter: 'c/y.txt' }));
    expect(page.Contents?.map((c) => c.Key)).toEqual(['d.txt', 'e.txt']);
  });
});
