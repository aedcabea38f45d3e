import type { ProviderRegistry } from '../registry.js';
import { BucketPolicyProvider, BUCKET_POLICY_TYPE } from './bucket-policy.js';
import { BucketProvider, BUCKET_TYPE } from './bucket.js';

/** The S3 SDK providers: AWS::S3::Bucket and AWS::S3::BucketPolicy. */
export function registerS3(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk(BUCKET_TYPE, new BucketProvider())
    .registerSdk(BUCKET_POLICY_TYPE, new BucketPolicyProvider());
}
