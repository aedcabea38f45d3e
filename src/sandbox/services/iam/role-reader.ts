import type { RoleReader } from '../../ports/index.js';
import type { SandboxContext } from '../../service-module.js';
import { awsManagedPolicy } from './aws-managed-policies.js';
import { isAwsManaged } from './model.js';
import { iamRoleDirectory } from './role-directory.js';
import type { IamStore } from './store.js';

/**
 * Roles for the modules that act as them and for `--enforce-iam`. An AWS managed policy the
 * sandbox does not model (`aws-managed-policies.ts`) allows nothing here: a role that relies
 * on one is refused (give it an inline or customer managed policy).
 */
export function roleReaderPort(context: SandboxContext, store: IamStore): RoleReader {
  const directory = iamRoleDirectory(context);
  const record = (roleArn: string) => {
    const facts = directory.lookup(roleArn);
    return facts ? store.findPrincipal('Role', facts.roleName) : undefined;
  };
  const managed = (arn: string): unknown => {
    if (isAwsManaged(arn)) return awsManagedPolicy(arn);
    const policy = store.findPolicy(arn);
    return policy?.versions.find((v) => v.versionId === policy.defaultVersionId)?.document;
  };
  return {
    holds: (roleArn) => directory.lookup(roleArn) !== undefined,
    assumableBy: (roleArn, servicePrincipal, now = Date.now()) =>
      directory.assumableBy(roleArn, servicePrincipal, now),
    identityPolicies(roleArn) {
      const role = record(roleArn);
      if (!role) return [];
      const attached = role.attached.map(managed).filter((document) => document !== undefined);
      return [...Object.values(role.inlinePolicies), ...attached];
    },
    permissionsBoundary(roleArn) {
      const boundary = record(roleArn)?.permissionsBoundary;
      // A boundary the sandbox cannot read allows nothing, as an empty policy would.
      return boundary === undefined ? undefined : (managed(boundary) ?? { Statement: [] });
    },
  };
}
