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

/** A list property of strings (Queues, Topics); anything else reads as empty. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The properties among `keys` that are set, for an API call that takes only those. */
export function pick<T extends Record<string, unknown>>(properties: T, keys: readonly string[]): T {
  return Object.fromEntries(
    keys.filter((key) => properties[key] !== undefined).map((key) => [key, properties[key]]),
  ) as T;
}

/** The keys whose values differ between `before` and `after` (compared as JSON). */
export function changedKeys(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys: readonly string[],
): string[] {
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}
