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
