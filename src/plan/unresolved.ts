/** Properties of a resource that reads something not made yet: always differs from the record. */
export const UNRESOLVED_PROPERTIES = { 'cdkd:unresolved': true } as const;

/** True for the placeholder properties of a resource that reads one not made yet. */
export function isUnresolved(properties: Record<string, unknown>): boolean {
  return properties['cdkd:unresolved'] === true;
}
