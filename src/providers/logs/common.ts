import { awsErrorCode } from '../../aws/error-class.js';
import type { JsonObject } from '../provider.js';

export function isNotFound(error: unknown): boolean {
  return awsErrorCode(error) === 'ResourceNotFoundException';
}

/** CloudFormation's `[{Key, Value}]` tags as the Logs API's map. */
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
export function uncovered(properties: JsonObject, covered: ReadonlySet<string>): string[] {
  return Object.keys(properties).filter((key) => !covered.has(key));
}

export function changed(before: JsonObject, after: JsonObject, key: string): boolean {
  return JSON.stringify(before[key]) !== JSON.stringify(after[key]);
}

export function optionalText(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}
