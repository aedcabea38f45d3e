import { createHash } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import { xmlResult } from '../../protocols/rest-xml.js';
import type { SandboxResponse } from '../../request.js';
import { el, optionalEl } from '../../xml.js';
import { emptyResponse, requireBucket, type S3Call, type S3Handler } from './call.js';
import { checksumHeaders, requestChecksum } from './checksums.js';
import {
  checkCopySourcePreconditions,
  checkReadPreconditions,
  checkWritePreconditions,
} from './conditions.js';
import type { BucketRecord, Checksum, ObjectVersion } from './model.js';
import { notifyObjectEvent } from './notifications.js';
import { s3Errors } from './s3-errors.js';
import { findVersion, latest, type BucketState } from './store.js';

/** Representation headers S3 stores with an object and returns on GET/HEAD. */
const STORED_HEADERS = [
  'content-encoding',
  'content-disposition',
  'cache-control',
  'content-language',
  'expires',
];

export const putObject: S3Handler = async (call) => {
  const state = requireBucket(call);
  const { request, store, key } = call;
  const checksum = requestChecksum(request.headers, request.body);
  const blobId = await store.putBody(call.bucket, request.body);
  try {
    // The bucket may have been deleted while the body was being stored.
    if (store.bucket(call.bucket) !== state) throw s3Errors.noSuchBucket(call.bucket);
    checkWritePreconditions(request.headers, key, latest(state, key));
  } catch (error) {
    await store.discardBody(call.bucket, blobId);
    throw error;
  }
  const version: ObjectVersion = {
    ...newVersion(call, state, key),
    etag: `"${createHash('md5').update(request.body).digest('hex')}"`,
    size: request.body.length,
    blobId,
    ...representation(request.headers, state.record),
    checksum,
  };
  await store.addVersion(state, version);
  await notifyObjectEvent(call, state, 'ObjectCreated:Put', version);
  return emptyResponse(200, {
    etag: version.etag,
    ...versionHeader(state.record, version),
    ...encryptionHeaders(version),
    ...checksumHeaders(checksum),
  });
};

export const getObject: S3Handler = (call) => readObject(call, true);
export const headObject: S3Handler = (call) => readObject(call, false);

async function readObject(call: S3Call, withBody: boolean): Promise<SandboxResponse> {
  const state = requireBucket(call);
  const { request, key } = call;
  const version = selectVersion(state, key, request.query.get('versionId'), request.method);
  const headers = objectHeaders(state.record, version);
  if (checkReadPreconditions(request.headers, version) === 'not-modified') {
    return emptyResponse(304, { etag: version.etag, 'last-modified': headers['last-modified']! });
  }
  const range = parseRange(request.headers['range'], version.size);
  if (range === undefined && request.headers['x-amz-checksum-mode'] === 'ENABLED') {
    Object.assign(headers, checksumHeaders(version.checksum));
  }
  for (const [param, header] of RESPONSE_OVERRIDES) {
    const value = request.query.get(param);
    if (value !== null) headers[header] = value;
  }
  const status = range ? 206 : 200;
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${version.size}`;
  const length = range ? range.end - range.start + 1 : version.size;
  headers['content-length'] = String(length);
  if (!withBody) return { status, headers };
  const body = await call.store.readBody(call.bucket, version);
  return { status, headers, body: range ? body.subarray(range.start, range.end + 1) : body };
}

const RESPONSE_OVERRIDES: Array<[string, string]> = [
  ['response-content-type', 'content-type'],
  ['response-content-language', 'content-language'],
  ['response-expires', 'expires'],
  ['response-cache-control', 'cache-control'],
  ['response-content-disposition', 'content-disposition'],
  ['response-content-encoding', 'content-encoding'],
];

/** The version a GET/HEAD reads, with S3's answers for delete markers and missing versions. */
function selectVersion(
  state: BucketState,
  key: string,
  versionId: string | null,
  method: string,
): ObjectVersion {
  if (versionId === null) {
    const current = latest(state, key);
    if (current === undefined) throw s3Errors.noSuchKey(key);
    if (current.deleteMarker) {
      throw s3Errors.noSuchKey(key, { 'x-amz-delete-marker': 'true', 'x-amz-version-id': current.versionId });
    }
    return current;
  }
  const version = findVersion(state, key, versionId);
  if (version === undefined) {
    if (versionId !== 'null' && !/^[A-Za-z0-9._]+$/.test(versionId)) {
      throw s3Errors.invalidArgument('Invalid version id specified', 'versionId', versionId);
    }
    throw s3Errors.noSuchVersion(key, versionId);
  }
  if (version.deleteMarker) {
    throw s3Errors.methodNotAllowed(method, { 'x-amz-delete-marker': 'true', 'x-amz-version-id': versionId });
  }
  return version;
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) {
    throw new SandboxError('InvalidRange', 'The requested range is not satisfiable', 416, {
      fields: { RangeRequested: header!, ActualObjectSize: String(size) },
    });
  }
  return { start, end };
}

export const copyObject: S3Handler = async (call) => {
  const { request, store, key } = call;
  const state = requireBucket(call);
  const source = parseCopySource(request.headers['x-amz-copy-source']!);
  const sourceState = requireBucket(call, source.bucket);
  const sourceVersion =
    source.versionId === undefined
      ? latest(sourceState, source.key)
      : findVersion(sourceState, source.key, source.versionId);
  if (sourceVersion === undefined || sourceVersion.deleteMarker) throw s3Errors.noSuchKey(source.key);
  checkCopySourcePreconditions(request.headers, sourceVersion);
  const replace = request.headers['x-amz-metadata-directive'] === 'REPLACE';
  const sameObject = source.bucket === call.bucket && source.key === key;
  if (sameObject && !replace && !changesStorage(request.headers)) {
    throw s3Errors.invalidRequest(
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  }
  const body = await store.readBody(source.bucket, sourceVersion);
  const blobId = await store.putBody(call.bucket, body);
  try {
    // The bucket may have been deleted while the body was being stored.
    if (store.bucket(call.bucket) !== state) throw s3Errors.noSuchBucket(call.bucket);
    checkWritePreconditions(request.headers, key, latest(state, key));
  } catch (error) {
    await store.discardBody(call.bucket, blobId);
    throw error;
  }
  const version: ObjectVersion = {
    ...newVersion(call, state, key),
    etag: sourceVersion.etag,
    size: sourceVersion.size,
    blobId,
    ...(replace
      ? representation(request.headers, state.record)
      : {
          contentType: sourceVersion.contentType,
          headers: {
            ...sourceVersion.headers,
            ...encryptionHeaders(representation(request.headers, state.record)),
          },
          metadata: { ...sourceVersion.metadata },
        }),
    checksum: copiedChecksum(request.headers, sourceVersion, body),
  };
  await store.addVersion(state, version);
  await notifyObjectEvent(call, state, 'ObjectCreated:Copy', version);
  const checksum = version.checksum;
  return {
    ...xmlResult('CopyObjectResult', [
      el('ETag', version.etag),
      el('LastModified', version.lastModified),
      checksum && optionalEl(`Checksum${checksum.algorithm}`, checksum.value),
    ]),
    headers: {
      'content-type': 'application/xml',
      ...versionHeader(state.record, version),
      ...(sourceState.record.versioning !== undefined
        ? { 'x-amz-copy-source-version-id': sourceVersion.versionId }
        : {}),
      ...encryptionHeaders(version),
    },
  };
};

function parseCopySource(header: string): { bucket: string; key: string; versionId?: string } {
  const [path = '', query = ''] = header.split('?');
  const decoded = decodeURIComponent(path).replace(/^\//, '');
  const slash = decoded.indexOf('/');
  if (slash <= 0 || slash === decoded.length - 1) {
    throw s3Errors.invalidArgument('Invalid copy source object key', 'x-amz-copy-source', header);
  }
  const versionId = new URLSearchParams(query).get('versionId') ?? undefined;
  return { bucket: decoded.slice(0, slash), key: decoded.slice(slash + 1), versionId };
}

function changesStorage(headers: Record<string, string>): boolean {
  return ['x-amz-storage-class', 'x-amz-server-side-encryption', 'x-amz-website-redirect-location'].some(
    (name) => headers[name] !== undefined,
  );
}

/** A copy keeps the source's checksum algorithm unless the request names another. */
function copiedChecksum(
  headers: Record<string, string>,
  source: ObjectVersion,
  body: Buffer,
): Checksum | undefined {
  const requested = headers['x-amz-checksum-algorithm'];
  if (requested === undefined) return source.checksum && { ...source.checksum };
  return requestChecksum({ 'x-amz-sdk-checksum-algorithm': requested }, body);
}

export function newVersion(
  call: S3Call,
  state: BucketState,
  key: string,
): Omit<ObjectVersion, 'etag' | 'size' | 'headers' | 'metadata'> {
  return {
    key,
    versionId: state.record.versioning === 'Enabled' ? randomString(32) : 'null',
    seq: call.store.nextSeq(),
    lastModified: call.context.clock.iso(),
    deleteMarker: false,
  };
}

/** Content type, stored headers and user metadata a write request sets. */
function representation(
  headers: Record<string, string>,
  bucket: BucketRecord,
): Pick<ObjectVersion, 'contentType' | 'headers' | 'metadata'> {
  const stored: Record<string, string> = {};
  for (const name of STORED_HEADERS) if (headers[name] !== undefined) stored[name] = headers[name];
  const rule = bucket.encryption[0];
  stored['x-amz-server-side-encryption'] =
    headers['x-amz-server-side-encryption'] ?? rule?.algorithm ?? 'AES256';
  const kmsKey = headers['x-amz-server-side-encryption-aws-kms-key-id'] ?? rule?.kmsKeyId;
  if (stored['x-amz-server-side-encryption'] !== 'AES256' && kmsKey !== undefined) {
    stored['x-amz-server-side-encryption-aws-kms-key-id'] = kmsKey;
  }
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('x-amz-meta-')) metadata[name.slice('x-amz-meta-'.length)] = value;
  }
  return { contentType: headers['content-type'] ?? 'binary/octet-stream', headers: stored, metadata };
}

function encryptionHeaders(version: Pick<ObjectVersion, 'headers'>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(version.headers).filter(([name]) => name.startsWith('x-amz-server-side-encryption')),
  );
}

export function versionHeader(bucket: BucketRecord, version: ObjectVersion): Record<string, string> {
  return bucket.versioning === undefined ? {} : { 'x-amz-version-id': version.versionId };
}

function objectHeaders(bucket: BucketRecord, version: ObjectVersion): Record<string, string> {
  const headers: Record<string, string> = {
    etag: version.etag,
    'last-modified': new Date(version.lastModified).toUTCString(),
    'content-type': version.contentType ?? 'binary/octet-stream',
    'accept-ranges': 'bytes',
    ...version.headers,
    ...versionHeader(bucket, version),
  };
  for (const [name, value] of Object.entries(version.metadata)) headers[`x-amz-meta-${name}`] = value;
  return headers;
}
