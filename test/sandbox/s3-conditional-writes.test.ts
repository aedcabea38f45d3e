import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, withSandbox } from './helpers.js';

describe('S3 conditional writes', () => {
  let s3: S3Client;
  let close: () => Promise<void>;
  const Bucket = 'conditional-writes';

  beforeAll(async () => {
    ({ s3, close } = await withSandbox());
    await s3.send(new CreateBucketCommand({ Bucket }));
  });
  afterAll(() => close());

  it('If-None-Match: * creates a new key and refuses an existing one with 412 PreconditionFailed', async () => {
    const created = await s3.send(
      new PutObjectCommand({ Bucket, Key: 'lock.json', Body: 'first', IfNoneMatch: '*' }),
    );
    expect(created.$metadata.httpStatusCode).toBe(200);

    const refused = await failure(
      s3.send(new PutObjectCommand({ Bucket, Key: 'lock.json', Body: 'second', IfNoneMatch: '*' })),
    );
    expect(refused.name).toBe('PreconditionFailed');
    expect(refused.status).toBe(412);
    const body = await s3.send(new GetObjectCommand({ Bucket, Key: 'lock.json' }));
    expect(await body.Body!.transformToString()).toBe('first');
  });

  it('If-Match with the current ETag replaces the object', async () => {
    const first = await s3.send(new PutObjectCommand({ Bucket, Key: 'state.json', Body: 'v1' }));
    const second = await s3.send(
      new PutObjectCommand({ Bucket, Key: 'state.json', Body: 'v2', IfMatch: first.ETag }),
    );
    expect(second.$metadata.httpStatusCode).toBe(200);
    expect(second.ETag).not.toBe(first.ETag);
  });

  it('If-Match with a stale ETag is 412 PreconditionFailed and leaves the object alone', async () => {
    const first = await s3.send(new PutObjectCommand({ Bucket, Key: 'guarded.json', Body: 'v1' }));
    await s3.send(new PutObjectCommand({ Bucket, Key: 'guarded.json', Body: 'v2' }));
    const refused = await failure(
      s3.send(new PutObjectCommand({ Bucket, Key: 'guarded.json', Body: 'v3', IfMatch: first.ETag })),
    );
    expect(refused.name).toBe('PreconditionFailed');
    expect(refused.status).toBe(412);
    const body = await s3.send(new GetObjectCommand({ Bucket, Key: 'guarded.json' }));
    expect(await body.Body!.transformToString()).toBe('v2');
  });

  it('If-Match on an absent key is 404 NoSuchKey', async () => {
    const refused = await failure(
      s3.send(new PutObjectCommand({ Bucket, Key: 'absent.json', Body: 'x', IfMatch: '"0123456789abcdef"' })),
    );
    expect(refused.name).toBe('NoSuchKey');
    expect(refused.status).toBe(404);
  });

  it('ETags are the quoted hex MD5 of the body', async () => {
    const put = await s3.send(new PutObjectCommand({ Bucket, Key: 'md5.txt', Body: 'hello' }));
    expect(put.ETag).toBe('"5d41402abc4b2a76b9719d911017c592"');
  });

  it('of many concurrent If-None-Match: * writers exactly one wins', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        s3.send(new PutObjectCommand({ Bucket, Key: 'race.json', Body: `writer ${i}`, IfNoneMatch: '*' })),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const rejected = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(rejected.map((a) => (a.reason as Error).name)).toEqual(Array(7).fill('PreconditionFailed'));
  });

  it('conditional reads: If-None-Match with the current ETag is 304, If-Match with another is 412', async () => {
    const put = await s3.send(new PutObjectCommand({ Bucket, Key: 'read-guarded', Body: 'body' }));
    const notModified = await failure(
      s3.send(new GetObjectCommand({ Bucket, Key: 'read-guarded', IfNoneMatch: put.ETag })),
    );
    expect(notModified.status).toBe(304);
    const stale = await failure(
      s3.send(new GetObjectCommand({ Bucket, Key: 'read-guarded', IfMatch: '"stale"' })),
    );
    expect(stale).toMatchObject({ name: 'PreconditionFailed', status: 412 });
    const fresh = await s3.send(new GetObjectCommand({ Bucket, Key: 'read-guarded', IfMatch: put.ETag }));
    expect(await fresh.Body!.transformToString()).toBe('body');
  });
});
