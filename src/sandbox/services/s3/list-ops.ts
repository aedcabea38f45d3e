import { xmlResult } from '../../protocols/rest-xml.js';
import { el, optionalEl } from '../../xml.js';
import { canonicalUserId, requireBucket, type S3Call, type S3Handler } from './call.js';
import { decodeToken, encodeToken } from './bucket-ops.js';
import type { ObjectVersion } from './model.js';
import { s3Errors } from './s3-errors.js';
import type { BucketState } from './store.js';

/** One listing entry: an object (version) or a common prefix that rolls up many keys. */
type Entry =
  { kind: 'object'; version: ObjectVersion; isLatest: boolean } | { kind: 'prefix'; prefix: string };

interface Page {
  entries: Entry[];
  truncated: boolean;
}

/** S3 lists keys in UTF-8 byte order. */
function compareKeys(a: string, b: string): number {
  // Without encoding: UTF-16 code units order BMP characters as their UTF-8 bytes do. Where
  // a surrogate is involved (astral or lone, which encodes as U+FFFD), compare the bytes.
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (isSurrogate(x) || isSurrogate(y)) return compareBytes(a, b);
    return x < y ? -1 : 1;
  }
  if (isSurrogate(a.charCodeAt(length)) || isSurrogate(b.charCodeAt(length))) return compareBytes(a, b);
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

const isSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdfff;

const compareBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

interface WalkOptions {
  prefix: string;
  delimiter: string;
  /** Resume point: entries sort after this key (or at it, when inclusive) */
  after?: { key: string; inclusive: boolean };
  maxKeys: number;
}

/**
 * Walks keys under `prefix` from the resume point, rolling keys up to CommonPrefixes at
 * `delimiter`, taking up to `maxKeys` entries. `versions` picks the versions listed per key.
 */
function walk(
  state: BucketState,
  options: WalkOptions,
  versions: (list: ObjectVersion[], key: string) => ObjectVersion[],
): Page {
  const { prefix, delimiter, after, maxKeys } = options;
  const entries: Entry[] = [];
  let lastPrefix: string | undefined;
  const keys = [...state.objects.keys()].filter((key) => key.startsWith(prefix));
  for (const key of keys.sort(compareKeys)) {
    if (after && (after.inclusive ? compareKeys(key, after.key) < 0 : compareKeys(key, after.key) <= 0))
      continue;
    const all = state.objects.get(key)!;
    const listed = versions(all, key);
    if (listed.length === 0) continue;
    const cut = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length);
    if (cut >= 0) {
      // A resumed listing whose marker is this common prefix has already returned it.
      const common = key.slice(0, cut + delimiter.length);
      if (common === lastPrefix || common === after?.key) continue;
      if (entries.length === maxKeys) return { entries, truncated: true };
      entries.push({ kind: 'prefix', prefix: common });
      lastPrefix = common;
      continue;
    }
    for (const version of listed) {
      if (entries.length === maxKeys) return { entries, truncated: true };
      entries.push({ kind: 'object', version, isLatest: version === all[0] });
    }
  }
  return { entries, truncated: false };
}

function maxKeysParam(call: S3Call): number {
  const raw = call.request.query.get('max-keys');
  if (raw === null) return 1000;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    throw s3Errors.invalidArgument(
      'Provided max-keys not an integer or within integer range',
      'max-keys',
      raw,
    );
  }
  return Math.min(value, 1000);
}

const currentOnly = (list: ObjectVersion[]): ObjectVersion[] =>
  list[0] && !list[0].deleteMarker ? [list[0]] : [];

function entryMarker(entry: Entry): string {
  return entry.kind === 'prefix' ? entry.prefix : entry.version.key;
}

function contents(version: ObjectVersion, owner?: string): string {
  return el('Contents', [
    el('Key', version.key),
    el('LastModified', version.lastModified),
    el('ETag', version.etag),
    version.checksum && el('ChecksumAlgorithm', version.checksum.algorithm),
    version.checksum && el('ChecksumType', 'FULL_OBJECT'),
    el('Size', version.size),
    owner && el('Owner', [el('ID', owner), el('DisplayName', 'sandbox')]),
    el('StorageClass', 'STANDARD'),
  ]);
}

function commonPrefixes(page: Page): string[] {
  return page.entries.flatMap((entry) =>
    entry.kind === 'prefix' ? [el('CommonPrefixes', [el('Prefix', entry.prefix)])] : [],
  );
}

export const listObjectsV2: S3Handler = async (call) => {
  const state = requireBucket(call);
  const query = call.request.query;
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const token = query.get('continuation-token');
  const startAfter = query.get('start-after') ?? undefined;
  const maxKeys = maxKeysParam(call);
  const afterKey = token !== null ? decodeToken(token) : startAfter;
  const after = afterKey === undefined ? undefined : { key: afterKey, inclusive: false };
  const page = walk(state, { prefix, delimiter, after, maxKeys }, currentOnly);
  const owner = query.get('fetch-owner') === 'true' ? canonicalUserId(call.request.accountId) : undefined;
  const last = page.entries[page.entries.length - 1];
  return xmlResult('ListBucketResult', [
    el('Name', call.bucket),
    el('Prefix', prefix),
    optionalEl('ContinuationToken', token ?? undefined),
    page.truncated && last ? el('NextContinuationToken', encodeToken(entryMarker(last))) : undefined,
    el('KeyCount', page.entries.length),
    el('MaxKeys', maxKeys),
    delimiter ? el('Delimiter', delimiter) : undefined,
    el('IsTruncated', page.truncated),
    optionalEl('StartAfter', startAfter),
    ...page.entries.flatMap((entry) => (entry.kind === 'object' ? [contents(entry.version, owner)] : [])),
    ...commonPrefixes(page),
  ]);
};

export const listObjects: S3Handler = async (call) => {
  const state = requireBucket(call);
  const query = call.request.query;
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const marker = query.get('marker') ?? '';
  const maxKeys = maxKeysParam(call);
  const after = marker === '' ? undefined : { key: marker, inclusive: false };
  const page = walk(state, { prefix, delimiter, after, maxKeys }, currentOnly);
  const owner = canonicalUserId(call.request.accountId);
  const last = page.entries[page.entries.length - 1];
  return xmlResult('ListBucketResult', [
    el('Name', call.bucket),
    el('Prefix', prefix),
    el('Marker', marker),
    page.truncated && delimiter && last ? el('NextMarker', entryMarker(last)) : undefined,
    el('MaxKeys', maxKeys),
    delimiter ? el('Delimiter', delimiter) : undefined,
    el('IsTruncated', page.truncated),
    ...page.entries.flatMap((entry) => (entry.kind === 'object' ? [contents(entry.version, owner)] : [])),
    ...commonPrefixes(page),
  ]);
};

export const listObjectVersions: S3Handler = async (call) => {
  const state = requireBucket(call);
  const query = call.request.query;
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const keyMarker = query.get('key-marker') ?? '';
  const versionIdMarker = query.get('version-id-marker') ?? '';
  const maxKeys = maxKeysParam(call);
  // With a version-id marker, the marker key's remaining (older) versions come first.
  const after = keyMarker === '' ? undefined : { key: keyMarker, inclusive: versionIdMarker !== '' };
  const page = walk(state, { prefix, delimiter, after, maxKeys }, (list, key) => {
    if (key !== keyMarker || versionIdMarker === '') return list;
    const index = list.findIndex((version) => version.versionId === versionIdMarker);
    return index < 0 ? list : list.slice(index + 1);
  });
  const owner = canonicalUserId(call.request.accountId);
  const last = page.entries[page.entries.length - 1];
  return xmlResult('ListVersionsResult', [
    el('Name', call.bucket),
    el('Prefix', prefix),
    el('KeyMarker', keyMarker),
    el('VersionIdMarker', versionIdMarker),
    page.truncated && last ? el('NextKeyMarker', entryMarker(last)) : undefined,
    page.truncated && last?.kind === 'object' ? el('NextVersionIdMarker', last.version.versionId) : undefined,
    el('MaxKeys', maxKeys),
    delimiter ? el('Delimiter', delimiter) : undefined,
    el('IsTruncated', page.truncated),
    ...page.entries.map((entry) =>
      entry.kind === 'object' ? versionEntry(entry.version, entry.isLatest, owner) : '',
    ),
    ...commonPrefixes(page),
  ]);
};

function versionEntry(version: ObjectVersion, isLatest: boolean, owner: string): string {
  const ownerEl = el('Owner', [el('ID', owner), el('DisplayName', 'sandbox')]);
  if (version.deleteMarker) {
    return el('DeleteMarker', [
      ownerEl,
      el('Key', version.key),
      el('VersionId', version.versionId),
      el('IsLatest', isLatest),
      el('LastModified', version.lastModified),
    ]);
  }
  return el('Version', [
    el('ETag', version.etag),
    version.checksum && el('ChecksumAlgorithm', version.checksum.algorithm),
    el('Size', version.size),
    el('StorageClass', 'STANDARD'),
    el('Key', version.key),
    el('VersionId', version.versionId),
    el('IsLatest', isLatest),
    el('LastModified', version.lastModified),
    ownerEl,
  ]);
}
