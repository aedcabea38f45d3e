import { canonicalJson } from '../../plan/index.js';
import { comparedProperties, driftOf } from '../drift/drift-rules.js';

/**
 * Whether AWS holds what a completed update applied, read after a run whose rollback may
 * have reverted it before its state save (a kill in between): `applied` when every property
 * the update changed reads as it set it; `reverted` when one reads otherwise; `unknown` when
 * none of them can be compared (masked, a secret reference, write-only) or it changed none.
 */
export function heldUpdate(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  live: Record<string, unknown>,
  writeOnly: readonly string[],
): 'applied' | 'reverted' | 'unknown' {
  const set = Object.fromEntries(
    Object.entries(after).filter(([key, value]) => canonicalJson(before[key]) !== canonicalJson(value)),
  );
  if (comparedProperties(set, writeOnly).length === 0) return 'unknown';
  return driftOf(set, live, writeOnly).length > 0 ? 'reverted' : 'applied';
}
