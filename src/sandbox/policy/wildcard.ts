/** IAM's wildcards: `*` any run of characters, `?` one character; the rest literal. */
export function wildcardMatch(pattern: string, value: string, ignoreCase: boolean): boolean {
  const source = pattern
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}
