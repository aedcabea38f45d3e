import type { S3Client } from '@aws-sdk/client-s3';
import { classifyAwsError } from '../aws/error-class.js';
import { stateBucketError } from './state-bucket-errors.js';
import { s3Sdk } from '../aws/sdk-modules.js';

const {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} = s3Sdk();

export type WriteCondition = { ifMatch: string } | { ifNoneMatch: '*' };

export interface StoredText {
  text: string;
  etag: string;
}

/** Raised when an S3 precondition (If-Match / If-None-Match) refuses a write. */
export class PreconditionFailed extends Error {
  constructor(readonly key: string) {
    super(`precondition failed for ${key}`);
    this.name = 'PreconditionFailed';
  }
}

/**
 * The few S3 object operations the state layer needs, with ETags kept and
 * errors turned into the state layer's own (missing bucket, wrong region).
 */
export class S3Objects {
  constructor(
    readonly s3: S3Client,
    readonly bucket: string,
    readonly region: string,
  ) {}

  location(key: string): string {
    return `s3://${this.bucket}/${key}`;
  }

  async get(key: string): Promise<StoredText | undefined> {
    try {
      const response = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const text = (await response.Body?.transformToString('utf8')) ?? '';
      return { text, etag: response.ETag ?? '' };
    } catch (error) {
      if (classifyAwsError(error) === 'not-found' && !isMissingBucket(error)) return undefined;
      throw stateBucketError(error, this.bucket, this.region);
    }
  }

  /** Writes, with a precondition when given; returns the new ETag or throws PreconditionFailed. */
  async put(key: string, text: string, condition?: WriteCondition): Promise<string> {
    try {
      const response = await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          // A Buffer spares the SDK converting the string twice (length, then upload).
          Body: Buffer.from(text, 'utf8'),
          ContentType: 'application/json',
          ...(condition
            ? 'ifMatch' in condition
              ? { IfMatch: condition.ifMatch }
              : { IfNoneMatch: '*' }
            : {}),
        }),
      );
      return response.ETag ?? '';
    } catch (error) {
      // If-Match on an absent key answers 404 NoSuchKey: the object we expected is gone.
      const errorClass = classifyAwsError(error);
      if (errorClass === 'precondition-failed') throw new PreconditionFailed(key);
      if (errorClass === 'not-found' && condition && 'ifMatch' in condition && !isMissingBucket(error)) {
        throw new PreconditionFailed(key);
      }
      throw stateBucketError(error, this.bucket, this.region);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw stateBucketError(error, this.bucket, this.region);
    }
  }

  /** Deletes the keys, a thousand per call (S3's limit); throws when S3 could not delete one. */
  async deleteMany(keys: readonly string[]): Promise<void> {
    for (let at = 0; at < keys.length; at += 1000) {
      const batch = keys.slice(at, at + 1000);
      try {
        const response = await this.s3.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const failed = response.Errors?.[0];
        // Shaped as the SDK's own errors, so the state layer names a denied delete as any other.
        if (failed)
          throw Object.assign(
            new Error(`${this.location(failed.Key ?? '')}: ${failed.Message ?? failed.Code}`),
            {
              name: failed.Code ?? 'InternalError',
            },
          );
      } catch (error) {
        throw stateBucketError(error, this.bucket, this.region);
      }
    }
  }

  async listKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.s3.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw stateBucketError(error, this.bucket, this.region);
    }
    return keys;
  }
}

function isMissingBucket(error: unknown): boolean {
  return (error as { name?: string }).name === 'NoSuchBucket';
}
