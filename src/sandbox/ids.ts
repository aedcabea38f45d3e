import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * `size` random bytes, like crypto.randomBytes, taken from a pooled block: one call into
 * the system's generator per 4 KiB rather than one per id (the sandbox makes ids on every
 * request). Not security relevant; the caller gets its own copy.
 */
export function randomBytesPooled(size: number): Buffer {
  if (size > POOL_SIZE) return randomBytes(size);
  if (poolOffset + size > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + size));
  poolOffset += size;
  return bytes;
}

/** Random string over an alphabet (version ids, request ids) — not security relevant. */
export function randomString(length: number, alphabet = BASE62): string {
  const bytes = randomBytesPooled(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

/** S3-style request id: 16 upper-case hex characters. */
export function s3RequestId(): string {
  return randomBytesPooled(8).toString('hex').toUpperCase();
}
