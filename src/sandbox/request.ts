import type { IncomingMessage } from 'node:http';
import { decodeAwsChunked, isAwsChunked } from './aws-chunked.js';

/** A request as every service module sees it: body fully read, aws-chunked framing removed. */
export interface SandboxRequest {
  method: string;
  /** The raw (still percent-encoded) path, without the query string. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased names; repeated headers joined with ", ". Trailing checksums are merged in. */
  headers: Record<string, string>;
  body: Buffer;
  /** From the SigV4 credential scope, e.g. `s3`, `sts`. */
  service: string;
  /** From the SigV4 credential scope: the region the client signed for. */
  region: string;
  accessKeyId: string;
  /**
   * The account the request acts in ({@link requestAccount}): every ARN, owner and account
   * id a service builds for this request uses it, never the sandbox's default directly.
   */
  accountId: string;
  requestId: string;
}

export interface SandboxResponse {
  status: number;
  /** Close the connection instead of answering (an injected network failure). */
  drop?: boolean;
  headers?: Record<string, string>;
  /** Headers sent once per value (API Gateway's multi-value headers, `set-cookie`), after `headers`. */
  headerLists?: Record<string, string[]>;
  body?: Buffer | string;
}

export interface CredentialScope {
  accessKeyId: string;
  region: string;
  service: string;
}

const ACCOUNT_ID = /^\d{12}$/;

/**
 * The account a request acts in: an access key id of 12 digits selects that account (the
 * convention other local AWS endpoints follow), any other key the sandbox's own.
 */
export function requestAccount(accessKeyId: string, sandboxAccount: string): string {
  return ACCOUNT_ID.test(accessKeyId) ? accessKeyId : sandboxAccount;
}

const AUTH_CREDENTIAL = /Credential=([^/,\s]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/;

/**
 * The SigV4 credential scope from the Authorization header or a presigned URL's
 * X-Amz-Credential. Signatures are not verified: the sandbox trusts any caller.
 */
export function credentialScope(
  headers: Record<string, string>,
  query: URLSearchParams,
): CredentialScope | undefined {
  const fromHeader = AUTH_CREDENTIAL.exec(headers['authorization'] ?? '');
  if (fromHeader) return { accessKeyId: fromHeader[1]!, region: fromHeader[2]!, service: fromHeader[3]! };
  const [accessKeyId, , region, service, terminator] = (query.get('X-Amz-Credential') ?? '').split('/');
  if (accessKeyId && region && service && terminator === 'aws4_request')
    return { accessKeyId, region, service };
  return undefined;
}

/** The session token temporary credentials sign with (header, or a presigned URL's parameter). */
export function sessionToken(request: Pick<SandboxRequest, 'headers' | 'query'>): string | undefined {
  return request.headers['x-amz-security-token'] ?? request.query.get('X-Amz-Security-Token') ?? undefined;
}

export function flattenHeaders(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export async function readBody(message: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Removes aws-chunked framing (the SDK's streaming uploads with trailing checksums) and
 * surfaces the trailers as headers, so handlers read `x-amz-checksum-*` the same way
 * whether the client sent it up front or after the body.
 */
export function unwrapBody(
  headers: Record<string, string>,
  raw: Buffer,
): { headers: Record<string, string>; body: Buffer } {
  if (!isAwsChunked(headers)) return { headers, body: raw };
  const { body, trailers } = decodeAwsChunked(raw);
  const merged = { ...headers, ...trailers };
  const encodings = (headers['content-encoding'] ?? '')
    .split(',')
    .map((encoding) => encoding.trim())
    .filter((encoding) => encoding !== '' && encoding !== 'aws-chunked');
  if (encodings.length > 0) merged['content-encoding'] = encodings.join(', ');
  else delete merged['content-encoding'];
  merged['content-length'] = String(body.length);
  return { headers: merged, body };
}
