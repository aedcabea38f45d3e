import { createHash } from 'node:crypto';

/** sha256 of a resolved property map, keys in sorted order so the hash never depends on key order. */
export function propertiesHash(properties: Readonly<Record<string, unknown>>): string {
  return createHash('sha256').update(canonicalJson(properties)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
