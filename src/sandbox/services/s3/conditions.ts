import { SandboxError } from '../../errors.js';
import type { ObjectVersion } from './model.js';
import { s3Errors } from './s3-errors.js';

/** Whether an `If-Match`/`If-None-Match` list (`"a", "b"`, `*`) names this ETag. */
export function etagMatches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((item) => item.trim().replace(/^W\//, ''))
    .some((item) => item === '*' || stripQuotes(item) === stripQuotes(etag));
}

function stripQuotes(etag: string): string {
  return etag.replace(/^"|"$/g, '');
}

/**
 * Conditional writes (PutObject, CopyObject destination) as S3 does them: `If-None-Match: *`
 * fails with 412 when the key exists; `If-Match` fails with 404 NoSuchKey when it doesn't
 * and 412 when its ETag differs. A delete marker counts as absent.
 */
export function checkWritePreconditions(
  headers: Record<string, string>,
  key: string,
  current?: ObjectVersion,
): void {
  const existing = current && !current.deleteMarker ? current : undefined;
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() !== '*') throw s3Errors.notImplemented();
    if (existing) throw s3Errors.preconditionFailed('If-None-Match');
  }
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    if (!existing) throw s3Errors.noSuchKey(key);
    if (!etagMatches(ifMatch, existing.etag)) throw s3Errors.preconditionFailed('If-Match');
  }
}

/** The outcome of GET/HEAD conditional headers: proceed, or answer 304. 412 is thrown. */
export function checkReadPreconditions(
  headers: Record<string, string>,
  version: ObjectVersion,
  prefix = '',
): 'proceed' | 'not-modified' {
  const modified = Date.parse(version.lastModified);
  const ifMatch = headers[`${prefix}if-match`];
  const ifUnmodifiedSince = parseDate(headers[`${prefix}if-unmodified-since`]);
  if (ifMatch !== undefined) {
    if (!etagMatches(ifMatch, version.etag)) throw s3Errors.preconditionFailed('If-Match');
  } else if (ifUnmodifiedSince !== undefined && truncateToSecond(modified) > ifUnmodifiedSince) {
    throw s3Errors.preconditionFailed('If-Unmodified-Since');
  }
  const ifNoneMatch = headers[`${prefix}if-none-match`];
  const ifModifiedSince = parseDate(headers[`${prefix}if-modified-since`]);
  if (ifNoneMatch !== undefined) {
    if (etagMatches(ifNoneMatch, version.etag)) return 'not-modified';
  } else if (ifModifiedSince !== undefined && truncateToSecond(modified) <= ifModifiedSince) {
    return 'not-modified';
  }
  return 'proceed';
}

/** CopyObject's `x-amz-copy-source-if-*` headers: any failure is 412. */
export function checkCopySourcePreconditions(headers: Record<string, string>, source: ObjectVersion): void {
  if (checkReadPreconditions(headers, source, 'x-amz-copy-source-') === 'not-modified') {
    throw new SandboxError(
      'PreconditionFailed',
      'At least one of the pre-conditions you specified did not hold',
      412,
      { fields: { Condition: 'x-amz-copy-source-If-None-Match' } },
    );
  }
}

function parseDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** HTTP dates have second precision; compare at that precision. */
function truncateToSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
