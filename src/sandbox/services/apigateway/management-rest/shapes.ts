import type { ResourceModel } from '../../../resources.js';

/** The object without its undefined members (what a JSON answer leaves out). */
export function defined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

/** API Gateway's tag map from the model's CloudFormation tag list. */
export function tagMapOf(model: ResourceModel): Record<string, string> | undefined {
  if (!Array.isArray(model.Tags) || model.Tags.length === 0) return undefined;
  return Object.fromEntries(
    (model.Tags as Array<{ Key: string; Value: string }>).map((tag) => [tag.Key, tag.Value]),
  );
}

/** The model's CloudFormation tag list from API Gateway's tag map. */
export function tagListOf(tags: unknown): Array<{ Key: string; Value: string }> | undefined {
  if (typeof tags !== 'object' || tags === null) return undefined;
  const list = Object.entries(tags as Record<string, unknown>).map(([Key, Value]) => ({
    Key,
    Value: String(Value),
  }));
  return list.length > 0 ? list : undefined;
}

/** A string map as the API takes it (`{}` and absent are the same: left out of the model). */
export function stringMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Object.keys(value).length === 0) return undefined;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

export const text = (value: unknown): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : String(value);
