import { randomBytes } from 'node:crypto';
import type { HttpRequest } from './types.js';
import type { HttpAnswer } from './types.js';

/**
 * The pieces of an HTTP request API Gateway and Lambda function URLs put into the events
 * they hand a function, and the small answers they give themselves.
 */

/** `length` characters of `alphabet`, at random. */
function randomString(length: number, alphabet: string): string {
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `12/Mar/2020:19:03:58 +0000`: the request time as API Gateway writes it. */
export function requestTime(epochMs: number): string {
  const date = new Date(epochMs);
  const two = (value: number): string => String(value).padStart(2, '0');
  return `${two(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/** API Gateway's extended request id (and an HTTP API's request id): 14 characters and `=`. */
export function extendedRequestId(): string {
  return `${randomString(14, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-')}=`;
}

/** An X-Ray trace header as API Gateway adds it. */
export function traceId(epochMs: number): string {
  const seconds = Math.floor(epochMs / 1000).toString(16);
  return `Root=1-${seconds}-${randomString(24, '0123456789abcdef')}`;
}

/** Query parameters in order, names and values percent-decoded (`+` is a space). */
export function queryPairs(rawQuery: string): Array<[string, string]> {
  if (rawQuery === '') return [];
  return rawQuery
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      const value = equals < 0 ? '' : part.slice(equals + 1);
      return [decodeQuery(name), decodeQuery(value)];
    });
}

function decodeQuery(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** A percent-decoded path segment (a malformed escape stays as sent). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Values grouped by name, in order; `lower` folds names to lower case first. */
export function groupValues(
  pairs: ReadonlyArray<readonly [string, string]>,
  lower = false,
): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const [name, value] of pairs) (grouped[lower ? name.toLowerCase() : name] ??= []).push(value);
  return grouped;
}

/** The last value of each name (what a 1.0 event's single-value maps hold), or null when there is none. */
export function lastValues(grouped: Record<string, string[]>): Record<string, string> | null {
  const entries = Object.entries(grouped);
  if (entries.length === 0) return null;
  return Object.fromEntries(entries.map(([name, values]) => [name, values[values.length - 1]!]));
}

export function orNull<T extends object>(value: T): T | null {
  return Object.keys(value).length === 0 ? null : value;
}

/** The headers a 2.0 event holds: lower-cased names, repeated values joined by commas, no cookies. */
export function joinedHeaders(request: HttpRequest): Record<string, string> {
  const grouped = groupValues(request.headerList, true);
  delete grouped.cookie;
  return Object.fromEntries(Object.entries(grouped).map(([name, values]) => [name, values.join(',')]));
}

/** The request's cookies, one entry per `name=value`, as a 2.0 event's `cookies`. */
export function requestCookies(request: HttpRequest): string[] {
  return request.headerList
    .filter(([name]) => name.toLowerCase() === 'cookie')
    .flatMap(([, value]) => value.split(';'))
    .map((cookie) => cookie.trim())
    .filter((cookie) => cookie !== '');
}

/** The forwarding headers API Gateway and function URLs add to what they pass on. */
export function forwardingHeaders(request: HttpRequest, epochMs: number): Record<string, string> {
  const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1] ?? '80';
  return {
    'x-amzn-trace-id': traceId(epochMs),
    'x-forwarded-for': request.sourceIp,
    'x-forwarded-port': port,
    'x-forwarded-proto': 'http',
  };
}

/** A JSON answer the front door gives itself (`{"message": ...}`), with its error type header. */
export function jsonAnswer(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/**
 * The content types an HTTP API or a function URL passes to the function as text; any
 * other body (a missing content type and form posts included) arrives base64-encoded.
 */
export function isTextContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/xml' ||
    type === 'application/javascript'
  );
}

/** Whether a media type matches one of a REST API's `binaryMediaTypes` (`*` wildcards; `~1` is `/`). */
export function matchesMediaTypes(
  mediaType: string | undefined,
  binaryMediaTypes: readonly string[],
): boolean {
  if (mediaType === undefined) return false;
  const type = mediaType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === '') return false;
  return binaryMediaTypes.some((pattern) => {
    const [patternType = '', patternSub = ''] = pattern.replace(/~1/g, '/').toLowerCase().split('/');
    const [mainType = '', subType = ''] = type.split('/');
    return (
      (patternType === '*' || patternType === mainType) && (patternSub === '*' || patternSub === subType)
    );
  });
}
