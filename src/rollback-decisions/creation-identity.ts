import type { CreationIdentity } from '../providers/index.js';
import { needsNoCreationIdentity } from '../resource-types/index.js';

export type IdentityProof = 'same' | 'different' | 'gone' | 'unproven';

/**
 * Whether the live resource answering to a failed CREATE's physical id is the one that
 * create made (spec 000: a name may have been reused since). `live` is what a read
 * returned: the identity, `undefined` when the resource exists but the read gave none,
 * `'gone'` when AWS reports it absent, `'unreadable'` when the read failed.
 *
 * Every recorded key must be present live with an equal value. Values compare exactly,
 * including ids of case-insensitive types: identity values are ARNs, resource ids and
 * timestamps AWS returns in one spelling, and a mismatch only withholds a delete.
 */
export function proveIdentity(
  recorded: CreationIdentity | undefined,
  live: CreationIdentity | undefined | 'gone' | 'unreadable',
  type: string,
): IdentityProof {
  if (live === 'gone') return 'gone';
  if (live === 'unreadable') return 'unproven';
  // AWS never reuses these ids: that the resource exists is proof enough.
  if (needsNoCreationIdentity(type)) return 'same';
  if (recorded === undefined || live === undefined) return 'unproven';
  const keys = Object.keys(recorded);
  // An empty identity proves nothing.
  if (keys.length === 0) return 'unproven';
  let missing = false;
  for (const key of keys) {
    if (!(key in live)) {
      missing = true;
      continue;
    }
    if (live[key] !== recorded[key]) return 'different';
  }
  return missing ? 'unproven' : 'same';
}
