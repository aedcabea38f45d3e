import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, arrays kept in order and `undefined`
 * members dropped (inside arrays it becomes null, as JSON.stringify does), so two maps
 * that differ only in key order serialize identically.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Spec 004: sha256 (hex) of the resolved property map; an unchanged hash means no-op. */
export function propertyHash(properties: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(properties)).digest('hex');
}

/**
 * Spec 004 "legacy empty hashes": a record written before property-hash tracking has none,
 * and on its first update it is treated as unchanged rather than replaced.
 */
export function hasLegacyEmptyHash(recordedHash: string | undefined): boolean {
  return recordedHash === undefined || recordedHash === '';
}
