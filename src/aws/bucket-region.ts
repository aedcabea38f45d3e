import { GetBucketLocationCommand, type S3Client } from '@aws-sdk/client-s3';

/**
 * The region a bucket lives in, through GetBucketLocation: a GET, which does not
 * hit the empty-body 301 that HEAD gets from a bucket in another region (spec
 * 003, "Cross-region state bucket").
 */
export async function bucketRegion(s3: S3Client, bucket: string): Promise<string> {
  const { LocationConstraint } = await s3.send(new GetBucketLocationCommand({ Bucket: bucket }));
  return normalizeLocationConstraint(LocationConstraint);
}

/** S3 reports us-east-1 as an empty constraint and eu-west-1 as the legacy `EU`. */
export function normalizeLocationConstraint(constraint: string | undefined | null): string {
  if (!constraint) return 'us-east-1';
  if (constraint === 'EU') return 'eu-west-1';
  return constraint;
}
