import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { awsErrorCode, classifyAwsError, httpStatusOf } from '../aws/error-class.js';
import { CdkdError } from '../errors.js';

/**
 * Proves the asset bucket is there before anything is packaged. HeadObject cannot:
 * S3 answers a HEAD on a missing bucket with the same bodiless 404 as a missing key.
 */
export async function checkAssetBucket(s3: S3Client, bucket: string, region: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (error) {
    throw assetBucketError(error, bucket, region) ?? error;
  }
}

/**
 * The CdkdError for a HeadBucket or PutObject failure that is about the bucket rather
 * than the object, else undefined. (Not for HeadObject, whose 404 means "no such key".)
 */
export function assetBucketError(error: unknown, bucket: string, region: string): CdkdError | undefined {
  const status = httpStatusOf(error);
  if (awsErrorCode(error) === 'NoSuchBucket' || status === 404) {
    return new CdkdError('ASSET_BUCKET_NOT_FOUND', `The asset bucket "${bucket}" does not exist.`, {
      hint: `Run cdkd bootstrap --region ${region} to create it.`,
      cause: error,
    });
  }
  if (status !== undefined && status >= 300 && status < 400) {
    return new CdkdError(
      'ASSET_BUCKET_WRONG_REGION',
      `The asset bucket "${bucket}" answered HTTP ${status}: it is not in ${region}, the region being deployed to.`,
      {
        hint: `Delete the bucket and run cdkd bootstrap --region ${region}; cdkd keeps one asset bucket per region.`,
        cause: error,
      },
    );
  }
  if (classifyAwsError(error) === 'access-denied') {
    return new CdkdError('ASSET_BUCKET_ACCESS_DENIED', `Access to the asset bucket "${bucket}" was denied.`, {
      hint: 'Check the credentials and profile in use, and the bucket policy.',
      cause: error,
    });
  }
  return undefined;
}
