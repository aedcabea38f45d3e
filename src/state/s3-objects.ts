import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { classifyAwsError } from '../aws/error-class.js';
import { DEFAULT_STATE_PREFIX } from './keys.js';
import { stateBucketError, type StateBucketCall } from './state-bucket-errors.js';

export type WriteCondition = { ifMatch: string } | { ifNoneMatch: '*' };

export interface StoredText {
  text: string;
  etag: string;
}

/** One stored version of an object (a delete marker is not one). */
export interface ObjectVersionInfo {
  key: string;
  versionId: string;
  lastModified: Date;
  isLatest: boolean;
}

/** Raised when an S3 precondition (If-Match / If-None-Match) refuses a write. */
export class PreconditionFailed extends Error {
  constructor(readonly key: string) {
    super(`precondition failed for ${key}`);
    this.name = 'PreconditionFailed';
  }
}

/**
 * The few S3 object operations the state layer needs, with ETags kept and every failure
 * turned into one naming the bucket, the document and what to do (state-bucket-errors.ts).
 */
export class S3Objects {
  constructor(
    readonly s3: S3Client,
    readonly bucket: string,
    readonly region: string,
    readonly prefix: string = DEFAULT_STATE_PREFIX,
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
      throw this.failed(error, 'read', key);
    }
  }

  /** One version of `key`, or undefined when that version is gone (a lifecycle rule expired it). */
  async getVersion(key: string, versionId: string): Promise<StoredText | undefined> {
    try {
      const response = await this.s3.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, VersionId: versionId }),
      );
      const text = (await response.Body?.transformToString('utf8')) ?? '';
      return { text, etag: response.ETag ?? '' };
    } catch (error) {
      if (classifyAwsError(error) === 'not-found' && !isMissingBucket(error)) return undefined;
      throw this.failed(error, 'read', key);
    }
  }

  /** The versions of exactly `key` the bucket keeps, newest first; delete markers left out. */
  async listVersions(key: string): Promise<ObjectVersionInfo[]> {
    return (await this.listVersionsUnder(key)).filter((version) => version.key === key);
  }

  /** Every kept version of every key under `prefix`, each key's newest first; delete markers left out. */
  async listVersionsUnder(prefix: string): Promise<ObjectVersionInfo[]> {
    const versions: ObjectVersionInfo[] = [];
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    try {
      do {
        const page = await this.s3.send(
          new ListObjectVersionsCommand({
            Bucket: this.bucket,
            Prefix: prefix,
            KeyMarker: keyMarker,
            VersionIdMarker: versionIdMarker,
          }),
        );
        for (const version of page.Versions ?? []) {
          if (version.Key === undefined || version.VersionId === undefined) continue;
          versions.push({
            key: version.Key,
            versionId: version.VersionId,
            lastModified: version.LastModified ?? new Date(0),
            isLatest: version.IsLatest === true,
          });
        }
        const more = page.IsTruncated === true;
        keyMarker = more ? page.NextKeyMarker : undefined;
        versionIdMarker = more ? page.NextVersionIdMarker : undefined;
      } while (keyMarker !== undefined);
    } catch (error) {
      throw this.failed(error, 'list', prefix);
    }
    return versions;
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
      throw this.failed(error, 'write', key);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw this.failed(error, 'delete', key);
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
        // Shaped as the SDK's own errors (S3 answered, per key), so a denied delete reads as any other.
        if (failed)
          throw Object.assign(
            new Error(`${this.location(failed.Key ?? '')}: ${failed.Message ?? failed.Code}`),
            { name: failed.Code ?? 'InternalError', $metadata: { httpStatusCode: 200 } },
          );
      } catch (error) {
        throw this.failed(error, 'delete', batch[0]!);
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
      throw this.failed(error, 'list', prefix);
    }
    return keys;
  }

  private failed(error: unknown, action: StateBucketCall['action'], key: string): unknown {
    return stateBucketError(error, this.bucket, this.region, { action, key, prefix: this.prefix });
  }
}

function isMissingBucket(error: unknown): boolean {
  return (error as { name?: string }).name === 'NoSuchBucket';
}
