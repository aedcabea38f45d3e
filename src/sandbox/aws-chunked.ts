import { SandboxError } from './errors.js';

/**
 * aws-chunked content encoding (SigV4 streaming): `<hex-size>[;chunk-signature=..]\r\n<data>\r\n`
 * repeated, a zero-size chunk, then optional `name:value\r\n` trailers and a final `\r\n`.
 * Used for STREAMING-UNSIGNED-PAYLOAD-TRAILER and the signed STREAMING-AWS4-HMAC-SHA256-* variants.
 */
export function isAwsChunked(headers: Record<string, string>): boolean {
  const encodings = (headers['content-encoding'] ?? '').split(',').map((encoding) => encoding.trim());
  return (
    encodings.includes('aws-chunked') || (headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-')
  );
}

export function decodeAwsChunked(raw: Buffer): { body: Buffer; trailers: Record<string, string> } {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', offset);
    if (lineEnd < 0) throw incomplete();
    const sizeField = raw.subarray(offset, lineEnd).toString('latin1').split(';')[0]!.trim();
    const size = Number.parseInt(sizeField, 16);
    if (!/^[0-9a-fA-F]+$/.test(sizeField) || !Number.isSafeInteger(size)) throw incomplete();
    offset = lineEnd + 2;
    if (size === 0) break;
    if (offset + size + 2 > raw.length) throw incomplete();
    parts.push(raw.subarray(offset, offset + size));
    offset += size + 2;
  }
  return { body: Buffer.concat(parts), trailers: parseTrailers(raw.subarray(offset).toString('latin1')) };
}

function parseTrailers(text: string): Record<string, string> {
  const trailers: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name !== 'x-amz-trailer-signature') trailers[name] = line.slice(colon + 1).trim();
  }
  return trailers;
}

function incomplete(): SandboxError {
  return new SandboxError(
    'IncompleteBody',
    'The request body terminated unexpectedly or its aws-chunked framing is invalid.',
    400,
  );
}
