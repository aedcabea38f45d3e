/** Tags as the services take them: CloudFormation gives `[{Key, Value}]`, values maybe numbers. */

/** CloudFormation's `[{Key, Value}]` tags as a map. */
export function tagMap(tags: unknown): Record<string, string> {
  if (!Array.isArray(tags)) return {};
  return Object.fromEntries(
    (tags as Array<{ Key: string; Value: unknown }>).map((tag) => [tag.Key, String(tag.Value)]),
  );
}

export function tagList(tags: Record<string, string> | undefined): Array<{ Key: string; Value: string }> {
  return Object.entries(tags ?? {}).map(([Key, Value]) => ({ Key, Value }));
}

/** Tags to set (new or changed) and keys to remove, going from `before` to `after`. */
export function tagDiff(
  before: Record<string, string>,
  after: Record<string, string>,
): { set: Record<string, string>; remove: string[] } {
  const set = Object.fromEntries(Object.entries(after).filter(([key, value]) => before[key] !== value));
  return { set, remove: Object.keys(before).filter((key) => !(key in after)) };
}

/** CloudFormation's `[{Key, Value}]` tags with each value as text, as EventBridge and Secrets Manager take them. */
export function textTags(tags: unknown): Array<{ Key: string; Value: string }> {
  return ((tags as Array<{ Key: string; Value: unknown }> | undefined) ?? []).map((t) => ({
    Key: t.Key,
    Value: String(t.Value),
  }));
}
