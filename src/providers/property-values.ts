import type { JsonObject } from './provider.js';

/**
 * CloudFormation property values as the query-era AWS APIs take them (SQS and SNS
 * attributes are all strings): numbers and booleans as CloudFormation stringifies them
 * (`"30"` stays `"30"`, `true` becomes `"true"`), JSON documents as compact JSON text.
 */
export function attributeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A JSON document property (a policy) that CloudFormation may give as text or an object. */
export function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

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

/** Top-level properties outside `covered` (what the provider would otherwise drop). */
export function uncovered(properties: JsonObject, covered: readonly string[]): string[] {
  return Object.keys(properties).filter((key) => !covered.includes(key));
}

/** A list property of strings (Queues, Topics); anything else reads as empty. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
