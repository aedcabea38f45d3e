import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random string over an alphabet (version ids, request ids) — not security relevant. */
export function randomString(length: number, alphabet = BASE62): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

/** S3-style request id: 16 upper-case hex characters. */
export function s3RequestId(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}
