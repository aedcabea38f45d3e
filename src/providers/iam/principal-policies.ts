import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import { documentText, isNoSuchEntity, parseDocument, stringList } from './common.js';
import { inlinePoliciesOf, inlinePolicyDiff, setDiff, type InlinePolicy } from './diff.js';
import type { PrincipalApi } from './principal-api.js';

/** Ignores "already gone" on a removal: the wanted end state is reached. */
export function ignoreGone(call: Promise<unknown>): Promise<void> {
  return deleteTreatingNotFoundAsGone(() => call, isNoSuchEntity);
}

/**
 * Brings a principal's inline `Policies` and `ManagedPolicyArns` from `before` to
 * `after` (both CloudFormation property values), adding before removing.
 */
export async function syncPolicies(
  api: PrincipalApi,
  name: string,
  before: { Policies?: unknown; ManagedPolicyArns?: unknown },
  after: { Policies?: unknown; ManagedPolicyArns?: unknown },
): Promise<void> {
  const inline = inlinePolicyDiff(inlinePoliciesOf(before.Policies), inlinePoliciesOf(after.Policies));
  const managed = setDiff(stringList(before.ManagedPolicyArns), stringList(after.ManagedPolicyArns));
  for (const policy of inline.put)
    await api.putPolicy(name, policy.PolicyName, documentText(policy.PolicyDocument));
  for (const arn of managed.add) await api.attach(name, arn);
  for (const policyName of inline.remove) await ignoreGone(api.deletePolicy(name, policyName));
  for (const arn of managed.remove) await ignoreGone(api.detach(name, arn));
}

/** Removes every inline and attached policy, so the principal itself can be deleted. */
export async function clearPolicies(api: PrincipalApi, name: string): Promise<void> {
  for (const policyName of await api.listPolicies(name)) await ignoreGone(api.deletePolicy(name, policyName));
  for (const arn of await api.listAttached(name)) await ignoreGone(api.detach(name, arn));
}

/** The live `Policies` and `ManagedPolicyArns`, as CloudFormation properties. */
export async function readPolicies(
  api: PrincipalApi,
  name: string,
): Promise<{ Policies: InlinePolicy[]; ManagedPolicyArns: string[] }> {
  const Policies: InlinePolicy[] = [];
  for (const PolicyName of await api.listPolicies(name)) {
    Policies.push({ PolicyName, PolicyDocument: parseDocument(await api.getPolicy(name, PolicyName)) });
  }
  return { Policies, ManagedPolicyArns: await api.listAttached(name) };
}
