import { randomInt } from 'node:crypto';
import { secretsErrors } from './secrets-errors.js';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** GetRandomPassword: the character classes not excluded, minus ExcludeCharacters, one of each when required. */
export function randomPassword(input: Record<string, unknown>): string {
  const length = input.PasswordLength === undefined ? 32 : Number(input.PasswordLength);
  if (!Number.isInteger(length) || length < 1 || length > 4096) {
    throw secretsErrors.invalidParameter('PasswordLength must be between 1 and 4096.');
  }
  const excluded = new Set(String(input.ExcludeCharacters ?? ''));
  const classes = [
    input.ExcludeLowercase === true ? '' : LOWER,
    input.ExcludeUppercase === true ? '' : UPPER,
    input.ExcludeNumbers === true ? '' : DIGITS,
    input.ExcludePunctuation === true ? '' : PUNCTUATION,
    input.IncludeSpace === true ? ' ' : '',
  ]
    .map((chars) => [...chars].filter((c) => !excluded.has(c)).join(''))
    .filter((chars) => chars.length > 0);
  if (classes.length === 0)
    throw secretsErrors.invalidParameter('No characters are left to build a password from.');
  const all = classes.join('');
  const required = input.RequireEachIncludedType === false ? [] : classes;
  if (required.length > length) {
    throw secretsErrors.invalidParameter(
      'PasswordLength is too short to include each required character type.',
    );
  }
  const chars = required.map((set) => set[randomInt(set.length)]!);
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
