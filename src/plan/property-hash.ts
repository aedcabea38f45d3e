import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, arrays kept in order and `undefined`
 * members dropped (inside arrays it becomes null, as JSON.stringify does), so two maps
 * that differ only in key order serialize identically.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  // Plain string building: every plan hashes each resource, and a no-op plan of 500 spent
  // more in the arrays of sort/filter/map/join than in sha256.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += value[i] === undefined ? 'null' : canonicalJson(value[i]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
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
