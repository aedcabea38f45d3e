import { createHash } from 'node:crypto';

/** The one digest algorithm ECR accepts. */
const DIGEST = /^sha256:[a-f0-9]{64}$/;

export function isDigest(value: string): boolean {
  return DIGEST.test(value);
}

export function sha256Digest(data: Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
