import {
  GetBucketLifecycleConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
  type LifecycleRule,
  type S3Client,
} from '@aws-sdk/client-s3';
import { awsErrorCode } from '../../aws/error-class.js';
import { CdkdError } from '../../errors.js';

/** How many earlier versions of each state document bootstrap keeps unless told (`--state-history`). */
export const DEFAULT_STATE_HISTORY = 20;
/** S3 retains at most 100 noncurrent versions per rule (NewerNoncurrentVersions). */
export const MAX_STATE_HISTORY = 100;
/** The rule bootstrap owns in the state bucket's lifecycle configuration, found again by this id. */
export const STATE_HISTORY_RULE_ID = 'cdkd-state-history';

/** `--state-history N`, checked: a whole number from 1 to 100. */
export function parseStateHistory(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_STATE_HISTORY) {
    throw new CdkdError(
      'STATE_HISTORY_INVALID',
      `--state-history "${text}" is not a number of versions to keep.`,
      {
        hint: `Give a whole number from 1 to ${MAX_STATE_HISTORY} (S3 keeps at most ${MAX_STATE_HISTORY} noncurrent versions per rule); the default is ${DEFAULT_STATE_HISTORY}.`,
      },
    );
  }
  return n;
}

/**
 * The state bucket keeps the last `keep` noncurrent versions of each document (state, journal,
 * generation ...), each expiring a day after a newer one replaced it: every deploy saves state
 * after each resource, so without the rule every save stays forever. The bucket's other rules
 * are kept; cdkd's own is replaced, so bootstrapping again with another N converges on it.
 */
export async function applyStateHistoryRule(s3: S3Client, bucket: string, keep: number): Promise<void> {
  const others = (await currentRules(s3, bucket)).filter((rule) => rule.ID !== STATE_HISTORY_RULE_ID);
  await s3.send(
    new PutBucketLifecycleConfigurationCommand({
      Bucket: bucket,
      LifecycleConfiguration: { Rules: [...others, stateHistoryRule(keep)] },
    }),
  );
}

export function stateHistoryRule(keep: number): LifecycleRule {
  return {
    ID: STATE_HISTORY_RULE_ID,
    Status: 'Enabled',
    Filter: { Prefix: '' },
    NoncurrentVersionExpiration: { NoncurrentDays: 1, NewerNoncurrentVersions: keep },
  };
}

async function currentRules(s3: S3Client, bucket: string): Promise<LifecycleRule[]> {
  try {
    const answer = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }));
    return answer.Rules ?? [];
  } catch (error) {
    if (awsErrorCode(error) === 'NoSuchLifecycleConfiguration') return [];
    throw error;
  }
}
