import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import { xmlResult } from '../../protocols/rest-xml.js';
import { children, el, malformedXml, optionalEl, parseXml, text } from '../../xml.js';
import { requireIntegrityHeader } from './bucket-config-ops.js';
import { emptyResponse, requireBucket, type S3Call, type S3Handler } from './call.js';
import type { ObjectVersion } from './model.js';
import { notifyObjectEvent } from './notifications.js';
import { findVersion, type BucketState } from './store.js';

interface DeleteOutcome {
  /** The version removed, or the delete marker added. */
  versionId?: string;
  /** A delete marker was added, or the version removed was one. */
  deleteMarker: boolean;
}

/**
 * S3 delete semantics: with a version id, that version is removed for good; without one,
 * an unversioned bucket drops the object, a versioned bucket adds a delete marker, and a
 * suspended bucket adds a 'null' delete marker (replacing the 'null' version).
 */
async function deleteOne(
  call: S3Call,
  state: BucketState,
  key: string,
  versionId?: string,
): Promise<DeleteOutcome> {
  const { store } = call;
  if (versionId !== undefined) {
    const version = findVersion(state, key, versionId);
    if (version === undefined) return { versionId, deleteMarker: false };
    await store.removeVersion(state, version);
    await notifyObjectEvent(call, state, 'ObjectRemoved:Delete', version);
    return { versionId, deleteMarker: version.deleteMarker };
  }
  const versioning = state.record.versioning;
  if (versioning === undefined) {
    const versions = state.objects.get(key) ?? [];
    for (const version of versions) await store.removeVersion(state, version);
    const removed = versions.at(-1);
    if (removed) await notifyObjectEvent(call, state, 'ObjectRemoved:Delete', removed);
    return { deleteMarker: false };
  }
  const marker: ObjectVersion = {
    key,
    versionId: versioning === 'Enabled' ? randomString(32) : 'null',
    seq: store.nextSeq(),
    lastModified: call.context.clock.iso(),
    deleteMarker: true,
    etag: '',
    size: 0,
    headers: {},
    metadata: {},
  };
  await store.addVersion(state, marker);
  await notifyObjectEvent(call, state, 'ObjectRemoved:DeleteMarkerCreated', marker);
  return { versionId: marker.versionId, deleteMarker: true };
}

export const deleteObject: S3Handler = async (call) => {
  const state = requireBucket(call);
  const outcome = await deleteOne(call, state, call.key, call.request.query.get('versionId') ?? undefined);
  const headers: Record<string, string> = {};
  if (outcome.deleteMarker) headers['x-amz-delete-marker'] = 'true';
  if (outcome.versionId !== undefined) headers['x-amz-version-id'] = outcome.versionId;
  return emptyResponse(204, headers);
};

const MAX_KEYS_PER_DELETE = 1000;

export const deleteObjects: S3Handler = async (call) => {
  const state = requireBucket(call);
  requireIntegrityHeader(call);
  const request = parseXml(call.request.body)['Delete'];
  const objects = children(request, 'Object');
  if (request === undefined || objects.length === 0 || objects.length > MAX_KEYS_PER_DELETE)
    throw malformedXml();
  const quiet = text(request, 'Quiet') === 'true';
  const results: string[] = [];
  for (const object of objects) {
    const key = text(object, 'Key');
    if (key === undefined) throw malformedXml();
    const versionId = text(object, 'VersionId');
    try {
      const outcome = await deleteOne(call, state, key, versionId);
      if (quiet) continue;
      const markerAdded = outcome.deleteMarker && versionId === undefined;
      results.push(
        el('Deleted', [
          el('Key', key),
          optionalEl('VersionId', versionId),
          outcome.deleteMarker ? el('DeleteMarker', true) : undefined,
          markerAdded ? optionalEl('DeleteMarkerVersionId', outcome.versionId) : undefined,
          !markerAdded && outcome.deleteMarker ? optionalEl('DeleteMarkerVersionId', versionId) : undefined,
        ]),
      );
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      results.push(
        el('Error', [
          el('Key', key),
          optionalEl('VersionId', versionId),
          el('Code', error.code),
          el('Message', error.message),
        ]),
      );
    }
  }
  return xmlResult('DeleteResult', results);
};
