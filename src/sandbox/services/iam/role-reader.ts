import type { RoleReader } from '../../ports/index.js';
import type { SandboxContext } from '../../service-module.js';
import { iamRoleDirectory } from './role-directory.js';
import type { IamStore } from './store.js';

/**
 * Roles for the modules that act as them. An AWS managed policy is not held by the sandbox,
 * so it allows nothing here: a role that relies on one is refused (give it an inline or
 * customer managed policy).
 */
export function roleReaderPort(context: SandboxContext, store: IamStore): RoleReader {
  const directory = iamRoleDirectory(context);
  const record = (roleArn: string) => {
    const facts = directory.lookup(roleArn);
    return facts ? store.findPrincipal('Role', facts.roleName) : undefined;
  };
  return {
    holds: (roleArn) => directory.lookup(roleArn) !== undefined,
    assumableBy: (roleArn, servicePrincipal, now = Date.now()) =>
      directory.assumableBy(roleArn, servicePrincipal, now),
    identityPolicies(roleArn) {
      const role = record(roleArn);
      if (!role) return [];
      const attached = role.attached.flatMap((arn) => {
        const policy = store.findPolicy(arn);
        const version = policy?.versions.find((v) => v.versionId === policy.defaultVersionId);
        return version ? [version.document] : [];
      });
      return [...Object.values(role.inlinePolicies), ...attached];
    },
  };
}
