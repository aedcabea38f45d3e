import { createHash } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import { xmlResult } from '../../protocols/rest-xml.js';
import { children, el, parseXml, text } from '../../xml.js';
import { emptyResponse, requireBucket, type S3Call, type S3Handler } from './call.js';
import { putObject } from './object-ops.js';
import type { S3Store } from './store.js';

/** An upload in progress: the headers of its CreateMultipartUpload and the parts sent so far. */
interface Upload {
  bucket: string;
  key: string;
  headers: Record<string, string>;
  parts: Map<number, { body: Buffer; etag: string }>;
}

/**
 * Multipart uploads (what the AWS CLI and the SDK's Upload use for large objects). Parts are
 * held in memory until the upload completes into one object through PutObject's path, or
 * is aborted; an upload in flight does not survive a sandbox restart.
 */
const uploadsOf = new WeakMap<S3Store, Map<string, Upload>>();

function uploadsIn(call: S3Call): Map<string, Upload> {
  let uploads = uploadsOf.get(call.store);
  if (!uploads) uploadsOf.set(call.store, (uploads = new Map()));
  return uploads;
}

const noSuchUpload = () =>
  new SandboxError(
    'NoSuchUpload',
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    404,
  );

function upload(call: S3Call): [string, Upload] {
  const id = call.request.query.get('uploadId') ?? '';
  const found = uploadsIn(call).get(id);
  if (!found || found.bucket !== call.bucket || found.key !== call.key) throw noSuchUpload();
  return [id, found];
}

export const createMultipartUpload: S3Handler = async (call) => {
  requireBucket(call);
  const id = randomString(64);
  uploadsIn(call).set(id, {
    bucket: call.bucket,
    key: call.key,
    headers: { ...call.request.headers },
    parts: new Map(),
  });
  return xmlResult('InitiateMultipartUploadResult', [
    el('Bucket', call.bucket),
    el('Key', call.key),
    el('UploadId', id),
  ]);
};

export const uploadPart: S3Handler = async (call) => {
  const [, found] = upload(call);
  const number = Number(call.request.query.get('partNumber'));
  if (!Number.isInteger(number) || number < 1 || number > 10_000) {
    throw new SandboxError(
      'InvalidArgument',
      'Part number must be an integer between 1 and 10000, inclusive',
      400,
    );
  }
  const etag = `"${createHash('md5').update(call.request.body).digest('hex')}"`;
  found.parts.set(number, { body: call.request.body, etag });
  return emptyResponse(200, { etag });
};

export const completeMultipartUpload: S3Handler = async (call) => {
  const [id, found] = upload(call);
  const listed = children(parseXml(call.request.body).CompleteMultipartUpload, 'Part').map((part) => ({
    number: Number(text(part, 'PartNumber')),
    etag: text(part, 'ETag') ?? '',
  }));
  if (listed.some((part, index) => index > 0 && part.number <= listed[index - 1]!.number)) {
    throw new SandboxError('InvalidPartOrder', 'The list of parts was not in ascending order.', 400);
  }
  const bodies = listed.map((part) => {
    const held = found.parts.get(part.number);
    if (!held || held.etag.replace(/"/g, '') !== part.etag.replace(/"/g, '')) {
      throw new SandboxError('InvalidPart', 'One or more of the specified parts could not be found.', 400);
    }
    return held.body;
  });
  // The object is the parts joined: the first request's length and digest do not describe it.
  const headers = without(found.headers, ['content-length', 'content-md5']);
  const stored = await putObject({
    ...call,
    request: { ...call.request, headers, body: Buffer.concat(bodies), query: new URLSearchParams() },
  });
  uploadsIn(call).delete(id);
  const md5s = Buffer.concat(listed.map((part) => Buffer.from(part.etag.replace(/"/g, ''), 'hex')));
  const etag = `"${createHash('md5').update(md5s).digest('hex')}-${listed.length}"`;
  const storedHeaders = without(stored.headers ?? {}, ['etag']);
  return {
    ...xmlResult('CompleteMultipartUploadResult', [
      el('Location', `/${call.bucket}/${call.key}`),
      el('Bucket', call.bucket),
      el('Key', call.key),
      el('ETag', etag),
    ]),
    headers: { 'content-type': 'application/xml', ...storedHeaders },
  };
};

export const abortMultipartUpload: S3Handler = async (call) => {
  const [id] = upload(call);
  uploadsIn(call).delete(id);
  return emptyResponse(204);
};

function without(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}
