/**
 * Pure diffs that turn a property change into IAM calls. Additions come before removals
 * in every caller, so a principal never passes through a state with fewer permissions
 * than both the old and the new template grant.
 */

export interface InlinePolicy {
  PolicyName: string;
  PolicyDocument: unknown;
}

/** Inline policies to put (new or changed document) and names to delete. */
export function inlinePolicyDiff(
  before: readonly InlinePolicy[],
  after: readonly InlinePolicy[],
): { put: InlinePolicy[]; remove: string[] } {
  const old = new Map(before.map((policy) => [policy.PolicyName, JSON.stringify(policy.PolicyDocument)]));
  const put = after.filter((policy) => old.get(policy.PolicyName) !== JSON.stringify(policy.PolicyDocument));
  const kept = new Set(after.map((policy) => policy.PolicyName));
  return { put, remove: before.map((policy) => policy.PolicyName).filter((name) => !kept.has(name)) };
}

/** Members to add and to remove going from `before` to `after` (order-insensitive, no duplicates). */
export function setDiff(
  before: readonly string[],
  after: readonly string[],
): { add: string[]; remove: string[] } {
  const old = new Set(before);
  const next = new Set(after);
  return {
    add: [...next].filter((item) => !old.has(item)),
    remove: [...old].filter((item) => !next.has(item)),
  };
}

export interface Tag {
  Key: string;
  Value: string;
}

/** Tags to set (new or changed value) and keys to remove. */
export function tagDiff(before: readonly Tag[], after: readonly Tag[]): { set: Tag[]; remove: string[] } {
  const old = new Map(before.map((tag) => [tag.Key, tag.Value]));
  const keys = new Set(after.map((tag) => tag.Key));
  return {
    set: after.filter((tag) => old.get(tag.Key) !== tag.Value),
    remove: before.map((tag) => tag.Key).filter((key) => !keys.has(key)),
  };
}

/** CloudFormation's `[{Key, Value}]`, values as strings. */
export function tagsOf(value: unknown): Tag[] {
  if (!Array.isArray(value)) return [];
  return (value as Array<{ Key: unknown; Value: unknown }>).map((tag) => ({
    Key: String(tag.Key),
    Value: String(tag.Value),
  }));
}

/** CloudFormation's `[{PolicyName, PolicyDocument}]`. */
export function inlinePoliciesOf(value: unknown): InlinePolicy[] {
  if (!Array.isArray(value)) return [];
  return (value as Array<{ PolicyName: unknown; PolicyDocument: unknown }>).map((policy) => ({
    PolicyName: String(policy.PolicyName),
    PolicyDocument: policy.PolicyDocument,
  }));
}
