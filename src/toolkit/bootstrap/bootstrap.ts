import type { S3Client } from '@aws-sdk/client-s3';
import { assetBucketName } from '../../state/bucket-names.js';
import { ensureCdkdBucket, type CdkdBucket } from './cdkd-buckets.js';
import type { Session } from '../session/session.js';
import { applyStateHistoryRule, DEFAULT_STATE_HISTORY } from './state-history.js';

export interface BootstrapResult {
  accountId: string;
  stateBucket: CdkdBucket;
  assetBucket: CdkdBucket;
}

/**
 * Creates (or brings up to date) the state bucket, with its bounded history (`stateHistory`
 * noncurrent versions of each document), and the asset bucket.
 * Idempotent: every setting is applied again, so a second run converges on the
 * same result and repairs a bucket whose settings drifted.
 */
export async function bootstrap(
  session: Session,
  options: { stateHistory?: number } = {},
): Promise<BootstrapResult> {
  const [accountId, region] = await Promise.all([session.accountId(), session.region()]);
  const s3For = (bucketRegion: string) => session.clients.s3(bucketRegion);
  const stateBucket = await ensureCdkdBucket(s3For, await session.stateBucketName(), region, {
    versioned: true,
  });
  await applyStateHistoryRule(
    await s3For(stateBucket.region),
    stateBucket.name,
    options.stateHistory ?? DEFAULT_STATE_HISTORY,
  );
  const assetBucket = await ensureAssetBucket(s3For, accountId, region);
  return { accountId, stateBucket, assetBucket };
}

/** The asset bucket of `accountId` in `region`, made or brought up to date as bootstrap does. */
export function ensureAssetBucket(
  s3For: (region: string) => Promise<S3Client>,
  accountId: string,
  region: string,
): Promise<CdkdBucket> {
  return ensureCdkdBucket(s3For, assetBucketName(accountId, region), region, { versioned: false });
}
