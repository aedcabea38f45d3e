/** A `*` (any run of characters) and `?` (one character) pattern as a whole-string RegExp. */
export function wildcard(pattern: string, ignoreCase: boolean): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, ignoreCase ? 'i' : '');
}
