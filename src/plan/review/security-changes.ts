import { stripVTControlCharacters } from 'node:util';
import type { StackValues } from './values.js';

/**
 * A stack's security-relevant changes, as rows of the CDK CLI's tables (`+` added, `-`
 * removed), and whether they broaden permissions.
 */
export interface SecurityChanges {
  /** [sign, resource, effect, action, principal, condition] per IAM statement. */
  iamStatements: string[][];
  /** [sign, resource, managed policy ARN] per managed-policy attachment. */
  managedPolicies: string[][];
  /** [sign, group, direction, protocol, peer] per security-group rule. */
  securityGroups: string[][];
  /** The CDK CLI's `permissionsBroadened`: an Allow or a managed policy added, a Deny removed, a rule added. */
  broadened: boolean;
}

/**
 * The IAM and security-group changes between what is recorded and what the template wants,
 * found by `@aws-cdk/cloudformation-diff` (the CDK CLI's own) over two templates made of the
 * changed resources' evaluated properties. The library (and the resource model it reads) loads
 * only when something changed.
 */
export async function securityChanges(values: StackValues): Promise<SecurityChanges> {
  const entries = Object.entries(values);
  if (entries.length === 0)
    return { iamStatements: [], managedPolicies: [], securityGroups: [], broadened: false };
  const template = (side: 'old' | 'new') => ({
    Resources: Object.fromEntries(
      entries.flatMap(([logicalId, value]) => {
        const properties = value[side];
        if (!properties) return [];
        const type = side === 'old' ? (value.previousType ?? value.type) : value.type;
        return [[logicalId, { Type: type, Properties: properties }]];
      }),
    ),
  });
  const { fullDiff } = await import('@aws-cdk/cloudformation-diff');
  const diff = fullDiff(template('old'), template('new'));
  const rows = (table: string[][]) =>
    table.slice(1).map((row) => row.map((cell) => stripVTControlCharacters(cell)));
  return {
    iamStatements: rows(diff.iamChanges.summarizeStatements()),
    managedPolicies: rows(diff.iamChanges.summarizeManagedPolicies()),
    securityGroups: rows(diff.securityGroupChanges.summarize()),
    broadened: diff.permissionsBroadened,
  };
}

/** Whether anything security-relevant changes. */
export function hasSecurityChanges(changes: SecurityChanges): boolean {
  return changes.iamStatements.length + changes.managedPolicies.length + changes.securityGroups.length > 0;
}
