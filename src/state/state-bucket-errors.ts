import { awsErrorCode, classifyAwsError, httpStatusOf } from '../aws/error-class.js';
import { CdkdError } from '../errors.js';

/**
 * Turns an S3 failure on the state bucket into a sentence a user can act on.
 * The cross-region case matters most: S3 answers with an empty-body 301 that
 * the SDK surfaces as a bare "UnknownError" (spec 003, "Cross-region state bucket").
 */
export function stateBucketError(error: unknown, bucket: string, region: string): unknown {
  if (error instanceof CdkdError) return error;
  const code = awsErrorCode(error);
  const status = httpStatusOf(error);
  if (code === 'NoSuchBucket') {
    return new CdkdError('STATE_BUCKET_NOT_FOUND', `The state bucket "${bucket}" does not exist.`, {
      hint: 'Run cdkd bootstrap to create it, or pass --state-bucket (or set CDKD_STATE_BUCKET) to use another.',
      cause: error,
    });
  }
  if (status === 301 || (status !== undefined && status >= 300 && status < 400)) {
    return new CdkdError(
      'STATE_BUCKET_WRONG_REGION',
      `The state bucket "${bucket}" answered HTTP ${status}: it is not in ${region}, the region cdkd used to reach it.`,
      {
        hint: 'cdkd looks the region up with GetBucketLocation; check that your credentials may call it on this bucket.',
        cause: error,
      },
    );
  }
  if (classifyAwsError(error) === 'access-denied') {
    return new CdkdError(
      'STATE_BUCKET_ACCESS_DENIED',
      `Access to the state bucket "${bucket}" was denied (${code}).`,
      {
        hint: 'Check the credentials and profile in use, and the bucket policy.',
        cause: error,
      },
    );
  }
  return error;
}

/** A command that needs a stack's state found none. */
export function stackNotInState(stack: { stackName: string; region: string }, bucket?: string): CdkdError {
  return new CdkdError(
    'STACK_NOT_IN_STATE',
    `No state for stack ${stack.stackName} in ${stack.region}${bucket ? ` in bucket ${bucket}` : ''}.`,
    { hint: 'Run cdkd state list to see the stacks cdkd has deployed.' },
  );
}
