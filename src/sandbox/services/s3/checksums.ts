import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { SandboxError } from '../../errors.js';
import type { Checksum } from './model.js';

const ALGORITHMS = ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256'] as const;
type Algorithm = (typeof ALGORITHMS)[number];

/** Base64 of the big-endian checksum, as S3 puts it in `x-amz-checksum-*`. */
export function computeChecksum(algorithm: Algorithm, body: Buffer): string {
  switch (algorithm) {
    case 'CRC32':
      return uint32(crc32(body));
    case 'CRC32C':
      return uint32(crc32c(body));
    case 'CRC64NVME':
      return crc64nvme(body);
    case 'SHA1':
      return createHash('sha1').update(body).digest('base64');
    case 'SHA256':
      return createHash('sha256').update(body).digest('base64');
  }
}

/**
 * The checksum a write carries (header or aws-chunked trailer), verified against the body:
 * a mismatch is S3's BadDigest. With only `x-amz-sdk-checksum-algorithm`, S3 computes it.
 */
export function requestChecksum(headers: Record<string, string>, body: Buffer): Checksum | undefined {
  for (const algorithm of ALGORITHMS) {
    const sent = headers[`x-amz-checksum-${algorithm.toLowerCase()}`];
    if (sent === undefined) continue;
    if (computeChecksum(algorithm, body) !== sent) {
      throw new SandboxError(
        'BadDigest',
        `The ${algorithm} you specified did not match the calculated checksum.`,
        400,
      );
    }
    return { algorithm, value: sent };
  }
  const requested = (
    headers['x-amz-sdk-checksum-algorithm'] ?? headers['x-amz-checksum-algorithm']
  )?.toUpperCase();
  if (requested === undefined) return undefined;
  if (!isAlgorithm(requested)) {
    throw new SandboxError('InvalidRequest', 'Value for x-amz-checksum-algorithm header is invalid.', 400);
  }
  return { algorithm: requested, value: computeChecksum(requested, body) };
}

/**
 * Digests of the whole payload a request may carry: Content-MD5 (malformed → InvalidDigest,
 * different → BadDigest) and a hex x-amz-content-sha256 (not the UNSIGNED/STREAMING markers).
 */
export function verifyPayloadDigests(headers: Record<string, string>, body: Buffer): void {
  const md5 = headers['content-md5'];
  if (md5 !== undefined) {
    if (Buffer.from(md5, 'base64').length !== 16) {
      throw new SandboxError('InvalidDigest', 'The Content-MD5 you specified was invalid.', 400);
    }
    if (createHash('md5').update(body).digest('base64') !== md5) {
      throw new SandboxError(
        'BadDigest',
        'The Content-MD5 you specified did not match what we received.',
        400,
      );
    }
  }
  const sha256 = headers['x-amz-content-sha256'];
  if (sha256 !== undefined && /^[0-9a-f]{64}$/.test(sha256)) {
    if (createHash('sha256').update(body).digest('hex') !== sha256) {
      throw new SandboxError(
        'XAmzContentSHA256Mismatch',
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
        400,
      );
    }
  }
}

export function checksumHeaders(checksum: Checksum | undefined): Record<string, string> {
  if (checksum === undefined) return {};
  return {
    [`x-amz-checksum-${checksum.algorithm.toLowerCase()}`]: checksum.value,
    'x-amz-checksum-type': 'FULL_OBJECT',
  };
}

function isAlgorithm(name: string): name is Algorithm {
  return (ALGORITHMS as readonly string[]).includes(name);
}

function uint32(value: number): string {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out.toString('base64');
}

const CRC32C_TABLE = reflectedTable32(0x82f63b78);

function crc32c(body: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of body) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function reflectedTable32(polynomial: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? polynomial ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

const CRC64_POLY = 0x9a6c9329ac4bc9b5n;
const CRC64_MASK = 0xffffffffffffffffn;
const CRC64NVME_TABLE = (() => {
  const table: bigint[] = [];
  for (let n = 0n; n < 256n; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1n ? CRC64_POLY ^ (c >> 1n) : c >> 1n;
    table.push(c);
  }
  return table;
})();

function crc64nvme(body: Buffer): string {
  let crc = CRC64_MASK;
  for (const byte of body) crc = CRC64NVME_TABLE[Number((crc ^ BigInt(byte)) & 0xffn)]! ^ (crc >> 8n);
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE((crc ^ CRC64_MASK) & CRC64_MASK);
  return out.toString('base64');
}
