import type { S3Client } from '@aws-sdk/client-s3';
import { CdkdError } from '../../errors.js';
import { assetBucketName } from '../../state/bucket-names.js';
import { partitionForRegion } from '../../template/pseudo-parameters.js';
import { ensureCdkdBucket, regionIfExists, type CdkdBucket } from './cdkd-buckets.js';
import { DEFAULT_QUALIFIER, QUALIFIER, deployRoleName, lookupRoleName, roleArn } from './role-names.js';
import { describeChange, desiredRole, roleChanges, type RoleFlags } from './role-plan.js';
import type { Session } from '../session/session.js';
import { applyStateHistoryRule, DEFAULT_STATE_HISTORY } from './state-history.js';

export interface BootstrapOptions {
  /** `--state-history`: noncurrent versions of each state document the state bucket keeps. */
  stateHistory?: number;
  /** `aws://ACCOUNT/REGION`: checked against the credentials' account; its region wins over --region. */
  environment?: string;
  /** `--trust`: accounts whose principals may assume the deploy role (and the lookup role). */
  trust?: readonly string[];
  /** `--trust-for-lookup`: accounts that may assume only the lookup role. */
  trustForLookup?: readonly string[];
  /** `--execution-policies`: managed policies of the deploy role (default AdministratorAccess). */
  executionPolicies?: readonly string[];
  /** `--permissions-boundary`: a managed policy name or ARN set as both roles' boundary. */
  permissionsBoundary?: string;
  qualifier?: string;
  /** `--tags`: on the buckets and the roles. */
  tags?: Record<string, string>;
  /** `--termination-protection`: recorded as the roles' `cdkd:termination-protection` tag. */
  terminationProtection?: boolean;
  /** `--show-plan`: only reads, and says what a run would change. */
  showPlan?: boolean;
}

export interface BootstrappedRole {
  name: string;
  arn: string;
  /** What was (or, with --show-plan, would be) changed; empty when it already matched. */
  changes: string[];
}

export interface BootstrapResult {
  accountId: string;
  region: string;
  stateBucket: CdkdBucket;
  assetBucket: CdkdBucket;
  roles: BootstrappedRole[];
  /** True for --show-plan: nothing was changed, `created` says what would be. */
  planned: boolean;
}

const ACCOUNT = /^\d{12}$/;

/**
 * Creates (or brings up to date) the state bucket, the asset bucket and the deploy role
 * other accounts deploy through (`--trust`), and the lookup role when some account is
 * trusted. Idempotent: every setting is applied again, so a second run converges on the
 * same result and repairs what drifted; a flag left out keeps what the role has. The state
 * bucket keeps `stateHistory` noncurrent versions of each document (what `cdkd undo` reads).
 */
export async function bootstrap(session: Session, options: BootstrapOptions = {}): Promise<BootstrapResult> {
  const accountId = await session.accountId();
  const region = environmentRegion(options.environment, accountId) ?? (await session.region());
  const qualifier = checkedQualifier(options.qualifier);
  const partition = partitionForRegion(region);
  const trust = checkedAccounts('--trust', options.trust);
  const lookupTrust = checkedAccounts('--trust-for-lookup', options.trustForLookup);
  const tags = {
    ...options.tags,
    ...(options.terminationProtection ? { 'cdkd:termination-protection': 'true' } : {}),
  };
  const tagsGiven = options.tags !== undefined || options.terminationProtection === true;
  const boundary =
    options.permissionsBoundary && policyArn(options.permissionsBoundary, partition, accountId);
  const shared: Omit<RoleFlags, 'trust' | 'policies' | 'defaultPolicies'> = {
    ownAccount: accountId,
    ...(boundary ? { permissionsBoundary: boundary } : {}),
    ...(tagsGiven ? { tags } : {}),
  };
  // Loaded here, not at the top: a deploy imports this module for the asset bucket alone.
  const [{ IAMClient }, { applyRoleChanges, readRole }] = await Promise.all([
    import('@aws-sdk/client-iam'),
    import('./roles.js'),
  ]);
  const iam = await session.clients.client(IAMClient, region);
  const roles = [
    {
      name: deployRoleName(qualifier, accountId, region),
      flags: {
        ...shared,
        ...(options.trust ? { trust } : {}),
        ...(options.executionPolicies
          ? { policies: options.executionPolicies.map((arn) => checkedPolicyArn(arn)) }
          : {}),
        defaultPolicies: [`arn:${partition}:iam::aws:policy/AdministratorAccess`],
      },
      wanted: true,
    },
    {
      name: lookupRoleName(qualifier, accountId, region),
      flags: {
        ...shared,
        ...(options.trust || options.trustForLookup ? { trust: [...trust, ...lookupTrust] } : {}),
        defaultPolicies: [`arn:${partition}:iam::aws:policy/ReadOnlyAccess`],
      },
      wanted: trust.length > 0 || lookupTrust.length > 0,
    },
  ];
  const results: BootstrappedRole[] = [];
  for (const role of roles) {
    const current = await readRole(iam, role.name);
    if (!current && !role.wanted) continue;
    const changes = roleChanges(desiredRole(role.flags, current), current);
    if (!options.showPlan) await applyRoleChanges(iam, role.name, partition, changes);
    results.push({
      name: role.name,
      arn: roleArn(accountId, region, role.name),
      changes: changes.map((change) => describeChange(role.name, change)),
    });
  }
  const s3For = (bucketRegion: string) => session.clients.s3(bucketRegion);
  const bucketTags = tagsGiven ? { tags } : {};
  const stateName = await session.stateBucketName();
  const assetName = assetBucketName(accountId, region);
  if (options.showPlan) {
    const planned = async (name: string, versioned: boolean): Promise<CdkdBucket> => {
      const existing = await regionIfExists(await s3For(region), name);
      return { name, region: existing ?? region, created: existing === undefined, versioned };
    };
    return {
      accountId,
      region,
      stateBucket: await planned(stateName, true),
      assetBucket: await planned(assetName, false),
      roles: results,
      planned: true,
    };
  }
  const stateBucket = await ensureCdkdBucket(s3For, stateName, region, { versioned: true, ...bucketTags });
  await applyStateHistoryRule(
    await s3For(stateBucket.region),
    stateBucket.name,
    options.stateHistory ?? DEFAULT_STATE_HISTORY,
  );
  const assetBucket = await ensureCdkdBucket(s3For, assetName, region, { versioned: false, ...bucketTags });
  return { accountId, region, stateBucket, assetBucket, roles: results, planned: false };
}

/** The asset bucket of `accountId` in `region`, made or brought up to date as bootstrap does. */
export function ensureAssetBucket(
  s3For: (region: string) => Promise<S3Client>,
  accountId: string,
  region: string,
): Promise<CdkdBucket> {
  return ensureCdkdBucket(s3For, assetBucketName(accountId, region), region, { versioned: false });
}

/** The region of `aws://ACCOUNT/REGION`, refused when ACCOUNT is not the credentials' own. */
export function environmentRegion(environment: string | undefined, accountId: string): string | undefined {
  if (environment === undefined) return undefined;
  const match = /^aws:\/\/([^/]+)\/([^/]+)$/.exec(environment);
  if (!match || !(ACCOUNT.test(match[1]!) || match[1] === 'unknown-account')) {
    throw new CdkdError(
      'BOOTSTRAP_TARGET_INVALID',
      `"${environment}" is not an environment of the form aws://ACCOUNT/REGION.`,
      {
        hint: 'For example: cdkd bootstrap aws://123456789012/us-east-1',
      },
    );
  }
  if (match[1] !== 'unknown-account' && match[1] !== accountId) {
    throw new CdkdError(
      'BOOTSTRAP_TARGET_INVALID',
      `Cannot bootstrap account ${match[1]} with credentials for account ${accountId}.`,
      {
        hint: `Run it with credentials for ${match[1]} (--profile, or --role-arn of a role there that trusts you).`,
      },
    );
  }
  return match[2] === 'unknown-region' ? undefined : match[2];
}

function checkedQualifier(qualifier: string | undefined): string {
  if (qualifier === undefined) return DEFAULT_QUALIFIER;
  if (QUALIFIER.test(qualifier)) return qualifier;
  throw new CdkdError(
    'BOOTSTRAP_OPTION_INVALID',
    `--qualifier "${qualifier}" is not a bootstrap qualifier.`,
    {
      hint: 'A qualifier is 1-10 lower-case letters and digits, starting with a letter (the CDK default is hnb659fds).',
    },
  );
}

function checkedAccounts(flag: string, accounts: readonly string[] | undefined): string[] {
  for (const account of accounts ?? []) {
    if (!ACCOUNT.test(account))
      throw new CdkdError(
        'BOOTSTRAP_OPTION_INVALID',
        `${flag} "${account}" is not a 12-digit AWS account id.`,
        {
          hint: `Name each account by its id: ${flag} 123456789012 (repeat the flag for more).`,
        },
      );
  }
  return [...(accounts ?? [])];
}

const POLICY_ARN = /^arn:aws[\w-]*:iam::(aws|\d{12}):policy\/[\w+=,.@/-]+$/;

function checkedPolicyArn(arn: string): string {
  if (POLICY_ARN.test(arn)) return arn;
  throw new CdkdError(
    'BOOTSTRAP_OPTION_INVALID',
    `--execution-policies "${arn}" is not a managed policy ARN.`,
    {
      hint: 'For example: arn:aws:iam::aws:policy/AdministratorAccess (separate several with commas).',
    },
  );
}

/** A boundary given by name is the account's customer managed policy of that name. */
function policyArn(nameOrArn: string, partition: string, accountId: string): string {
  if (nameOrArn.startsWith('arn:')) {
    if (POLICY_ARN.test(nameOrArn)) return nameOrArn;
    throw new CdkdError(
      'BOOTSTRAP_OPTION_INVALID',
      `--permissions-boundary "${nameOrArn}" is not a managed policy ARN.`,
      {
        hint: 'Give the policy name, or its ARN (arn:aws:iam::123456789012:policy/NAME).',
      },
    );
  }
  return `arn:${partition}:iam::${accountId}:policy/${nameOrArn}`;
}
