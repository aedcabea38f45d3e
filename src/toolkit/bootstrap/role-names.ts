import { partitionForRegion } from '../../template/pseudo-parameters.js';

/** The CDK's default bootstrap qualifier, which cdkd's role names share unless --qualifier says otherwise. */
export const DEFAULT_QUALIFIER = 'hnb659fds';

/** A qualifier as the CDK takes one: 1-10 lower-case letters and digits, starting with a letter. */
export const QUALIFIER = /^[a-z][a-z0-9]{0,9}$/;

/** The role `cdkd bootstrap` makes for cdkd to deploy through from the accounts it trusts. */
export function deployRoleName(qualifier: string, accountId: string, region: string): string {
  return `cdkd-${qualifier}-deploy-role-${accountId}-${region}`;
}

/**
 * The role `--trust-for-lookup` makes for context lookups: the CDK's own lookup role name, the
 * one a synthesized app's context queries ask for (`lookupRoleArn`), so lookups from another
 * account find it.
 */
export function lookupRoleName(qualifier: string, accountId: string, region: string): string {
  return `cdk-${qualifier}-lookup-role-${accountId}-${region}`;
}

export function roleArn(accountId: string, region: string, roleName: string): string {
  return `arn:${partitionForRegion(region)}:iam::${accountId}:role/${roleName}`;
}

/**
 * The qualifier a stack was synthesized for, read from the deploy role its synthesizer names
 * (`cdk-QUALIFIER-deploy-role-...`); the default when it names none (a legacy synthesizer).
 */
export function stackQualifier(assumeRoleArn: string | undefined): string {
  const match = /:role\/cdk-([a-z0-9]+)-deploy-role-/.exec(assumeRoleArn ?? '');
  return match?.[1] ?? DEFAULT_QUALIFIER;
}
