import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { awsErrorCode } from '../../aws/error-class.js';

/** One asset cdkd stored: an object in its asset bucket (an image in its repository would be another kind). */
export interface StoredAsset {
  kind: 'object' | 'image';
  /** How it is shown: `s3://bucket/key`, or `repository:tag` for an image. */
  location: string;
  /** The strings a state document holding a reference to it contains (an object's key; an image's tag and digest). */
  names: readonly string[];
  storedAt: Date;
  size?: number;
}

/**
 * Where one kind of asset lives: listed whole, and deleted by what the listing answered. Asset
 * objects are one; container images in cdkd's repositories slot in as another.
 */
export interface AssetStorage {
  describe: string;
  /** Everything stored, or undefined when the storage does not exist (nothing was ever published). */
  list(): Promise<StoredAsset[] | undefined>;
  delete(assets: readonly StoredAsset[]): Promise<void>;
}

/** cdkd's asset bucket of one account and region. */
export function assetBucketStorage(s3: S3Client, bucket: string): AssetStorage {
  const keyOf = new Map<string, string>();
  return {
    describe: `s3://${bucket}`,
    async list() {
      const assets: StoredAsset[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
          for (const object of page.Contents ?? []) {
            if (object.Key === undefined) continue;
            const location = `s3://${bucket}/${object.Key}`;
            keyOf.set(location, object.Key);
            assets.push({
              kind: 'object',
              location,
              names: [object.Key],
              storedAt: object.LastModified ?? new Date(),
              ...(object.Size !== undefined && { size: object.Size }),
            });
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (error) {
        if (awsErrorCode(error) === 'NoSuchBucket') return undefined;
        throw error;
      }
      return assets;
    },
    async delete(assets) {
      const keys = assets.map((asset) => keyOf.get(asset.location)!);
      for (let at = 0; at < keys.length; at += 1000) {
        const batch = keys.slice(at, at + 1000);
        const answer = await s3.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const failed = answer.Errors?.[0];
        if (failed) throw new Error(`s3://${bucket}/${failed.Key}: ${failed.Message ?? failed.Code}`);
      }
    },
  };
}
