/** The state bucket: --state-bucket, then CDKD_STATE_BUCKET, then `cdkd-state-{accountId}`. */
export function stateBucketName(flag: string | undefined, accountId: () => Promise<string>): Promise<string> {
  const explicit = flag || process.env.CDKD_STATE_BUCKET;
  if (explicit) return Promise.resolve(explicit);
  return accountId().then((account) => `cdkd-state-${account}`);
}

/** Where cdkd uploads file assets, one bucket per account and region. */
export function assetBucketName(accountId: string, region: string): string {
  return `cdkd-assets-${accountId}-${region}`;
}

/** A region as it ends an asset bucket's name (`us-east-1`, `us-gov-west-1`). */
const REGION = /^[a-z]{2,}(-[a-z]+)+-\d+$/;

/**
 * Which of cdkd's own buckets `name` is, if any: the state bucket in use or the default one
 * (`cdkd-state-{account}`), or an asset bucket of any region. S3 names are lower case, so
 * the comparison ignores case.
 */
export function cdkdBucketRole(
  name: string,
  own: { stateBucket: string; accountId: string },
): 'state' | 'asset' | undefined {
  const lower = name.toLowerCase();
  if (lower === own.stateBucket.toLowerCase() || lower === `cdkd-state-${own.accountId}`) return 'state';
  const assets = `cdkd-assets-${own.accountId}-`;
  return lower.startsWith(assets) && REGION.test(lower.slice(assets.length)) ? 'asset' : undefined;
}
