import {
  CreateBucketCommand,
  PutBucketEncryptionCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutPublicAccessBlockCommand,
  type BucketLocationConstraint,
  type S3Client,
} from '@aws-sdk/client-s3';
import { awsErrorCode, classifyAwsError } from '../../aws/error-class.js';
import { bucketRegion } from '../../aws/bucket-region.js';
import { CdkdError } from '../../errors.js';
import { partitionForRegion } from '../../template/pseudo-parameters.js';

/** One of cdkd's buckets (state or assets) as it was left. */
export interface CdkdBucket {
  name: string;
  region: string;
  created: boolean;
  versioned: boolean;
}

/**
 * Creates one of cdkd's buckets in `region` unless it exists, then applies every setting
 * (again): encryption, public access blocked, a TLS-only policy, versioning and tags when asked.
 * Idempotent, so a second run repairs a bucket whose settings drifted.
 */
export async function ensureCdkdBucket(
  s3For: (region: string) => Promise<S3Client>,
  name: string,
  region: string,
  settings: { versioned: boolean; tags?: Record<string, string> },
): Promise<CdkdBucket> {
  const existingRegion = await regionIfExists(await s3For(region), name);
  const created = existingRegion === undefined;
  if (created) await createBucket(await s3For(region), name, region);
  // An existing bucket may live elsewhere; configure it through its own region.
  const homeRegion = existingRegion ?? region;
  const s3 = await s3For(homeRegion);
  if (settings.versioned) {
    await s3.send(
      new PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: { Status: 'Enabled' } }),
    );
  }
  await s3.send(
    new PutBucketEncryptionCommand({
      Bucket: name,
      ServerSideEncryptionConfiguration: {
        Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: true }],
      },
    }),
  );
  await s3.send(
    new PutPublicAccessBlockCommand({
      Bucket: name,
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        IgnorePublicAcls: true,
        BlockPublicPolicy: true,
        RestrictPublicBuckets: true,
      },
    }),
  );
  await s3.send(
    new PutBucketPolicyCommand({ Bucket: name, Policy: JSON.stringify(tlsOnlyPolicy(name, homeRegion)) }),
  );
  if (settings.tags) {
    await s3.send(
      new PutBucketTaggingCommand({
        Bucket: name,
        Tagging: { TagSet: Object.entries(settings.tags).map(([Key, Value]) => ({ Key, Value })) },
      }),
    );
  }
  return { name, region: homeRegion, created, versioned: settings.versioned };
}

/**
 * The region of a bucket this account can see, or undefined when there is no such bucket.
 * Asked first because CreateBucket on a bucket we own succeeds silently in us-east-1.
 */
export async function regionIfExists(s3: S3Client, name: string): Promise<string | undefined> {
  try {
    return await bucketRegion(s3, name);
  } catch (error) {
    const code = awsErrorCode(error);
    if (code === 'NoSuchBucket') return undefined;
    if (classifyAwsError(error) === 'access-denied') throw nameTaken(name, error);
    if (code === 'InvalidBucketName') throw invalidName(name, error);
    throw error;
  }
}

async function createBucket(s3: S3Client, name: string, region: string): Promise<void> {
  try {
    await s3.send(
      new CreateBucketCommand({
        Bucket: name,
        ...(region === 'us-east-1'
          ? {}
          : { CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } }),
      }),
    );
  } catch (error) {
    const code = awsErrorCode(error);
    // Made by a concurrent bootstrap between our look-up and our create.
    if (code === 'BucketAlreadyOwnedByYou') return;
    if (code === 'BucketAlreadyExists') throw nameTaken(name, error);
    if (code === 'InvalidBucketName') throw invalidName(name, error);
    throw error;
  }
}

function nameTaken(name: string, cause: unknown): CdkdError {
  return new CdkdError(
    'BUCKET_NAME_TAKEN',
    `The bucket "${name}" exists but this account cannot use it (another account owns it, or these credentials may not read it).`,
    { hint: 'Choose another state bucket name with --state-bucket (or CDKD_STATE_BUCKET).', cause },
  );
}

function invalidName(name: string, cause: unknown): CdkdError {
  return new CdkdError('BUCKET_NAME_INVALID', `"${name}" is not a valid S3 bucket name.`, {
    hint: 'Bucket names are 3-63 characters of lower-case letters, digits, dots and hyphens.',
    cause,
  });
}

function tlsOnlyPolicy(bucket: string, region: string) {
  const arn = `arn:${partitionForRegion(region)}:s3:::${bucket}`;
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'DenyInsecureTransport',
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:*',
        Resource: [arn, `${arn}/*`],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ],
  };
}
