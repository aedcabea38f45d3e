/**
 * Whether cdkd can address a resource by this physical id (spec 000, "An operation cdkd
 * cannot address"). Only a hand-edited or torn state.json or journal fails this: the
 * journal keeps ids loose so such an entry is skipped with a warning, not refused.
 */
export function isAddressable(physicalId: unknown): physicalId is string {
  return typeof physicalId === 'string' && physicalId.trim() !== '';
}
