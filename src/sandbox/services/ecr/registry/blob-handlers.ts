import type { SandboxResponse } from '../../../request.js';
import { isDigest } from '../images/digests.js';
import type { Upload } from '../images/uploads.js';
import type { RegistryCall } from './registry-call.js';
import { RegistryError, registryResponse } from './registry-http.js';

/** HEAD / GET of a blob the repository holds. */
export async function getBlob(call: RegistryCall, digest: string): Promise<SandboxResponse> {
  if (!isDigest(digest))
    throw new RegistryError('DIGEST_INVALID', 'provided digest is not a sha256 digest', digest);
  if (!call.images.hasBlob(call.region, call.name, digest)) {
    throw new RegistryError('BLOB_UNKNOWN', 'blob unknown to registry', digest);
  }
  const headers = {
    'content-type': 'application/octet-stream',
    'docker-content-digest': digest,
    'content-length': String(call.images.blobs.size(digest)),
  };
  if (call.request.method === 'HEAD') return registryResponse(200, headers);
  return registryResponse(200, headers, await call.images.blobs.read(digest));
}

/**
 * POST to the uploads URL: a cross-repository mount (`mount` and `from`: the blob is linked
 * when the source repository holds it, else an upload starts), a monolithic upload
 * (`digest` and the body), or a new upload session.
 */
export async function startUpload(
  call: RegistryCall,
  sourceHolds: (from: string, digest: string) => boolean,
): Promise<SandboxResponse> {
  const mount = call.query.get('mount');
  const from = call.query.get('from');
  if (mount !== null && from !== null && isDigest(mount) && sourceHolds(from, mount)) {
    await call.images.linkBlob(call.region, call.name, mount);
    return created(call, mount);
  }
  const upload = call.uploads.start(call.region, call.name);
  const digest = call.query.get('digest');
  if (digest !== null) {
    call.uploads.append(upload, call.request.body);
    return created(call, await completeOrCancel(call, upload, digest));
  }
  return accepted(call, upload);
}

export function uploadStatus(call: RegistryCall, upload: Upload): SandboxResponse {
  return registryResponse(204, uploadHeaders(call, upload));
}

/** PATCH: one chunk, at the offset its Content-Range names (when it names one). */
export function patchUpload(call: RegistryCall, upload: Upload): SandboxResponse {
  const range = call.request.headers['content-range'];
  if (range !== undefined) {
    const match = /^(?:bytes[ =])?(\d+)-(\d+)$/.exec(range.trim());
    const first = match ? Number(match[1]) : NaN;
    const last = match ? Number(match[2]) : NaN;
    if (!match || last - first + 1 !== call.request.body.length || first !== upload.size) {
      throw new RegistryError(
        'BLOB_UPLOAD_INVALID',
        'blob upload invalid',
        `Content-Range ${range} does not continue the upload (${upload.size} bytes held) with this ${call.request.body.length}-byte chunk`,
        416,
        uploadHeaders(call, upload),
      );
    }
  }
  call.uploads.append(upload, call.request.body);
  return accepted(call, upload);
}

/** PUT: the last chunk (if any) and the digest the content must have. */
export async function putUpload(call: RegistryCall, upload: Upload): Promise<SandboxResponse> {
  const digest = call.query.get('digest');
  if (digest === null)
    throw new RegistryError('DIGEST_INVALID', 'a digest query parameter is required to complete an upload');
  if (call.request.body.length > 0) call.uploads.append(upload, call.request.body);
  return created(call, await completeOrCancel(call, upload, digest));
}

export function cancelUpload(call: RegistryCall, upload: Upload): SandboxResponse {
  call.uploads.cancel(upload);
  return registryResponse(204, {});
}

/** A failed digest check ends the upload, as the registry drops a session it refused. */
async function completeOrCancel(call: RegistryCall, upload: Upload, digest: string): Promise<string> {
  try {
    return await call.uploads.complete(upload, digest);
  } catch (error) {
    call.uploads.cancel(upload);
    throw error;
  }
}

function created(call: RegistryCall, digest: string): SandboxResponse {
  return registryResponse(201, {
    location: `${call.base}/blobs/${digest}`,
    'docker-content-digest': digest,
  });
}

function accepted(call: RegistryCall, upload: Upload): SandboxResponse {
  return registryResponse(202, uploadHeaders(call, upload));
}

function uploadHeaders(call: RegistryCall, upload: Upload): Record<string, string> {
  return {
    location: `${call.base}/blobs/uploads/${upload.id}`,
    'docker-upload-uuid': upload.id,
    range: `0-${Math.max(0, upload.size - 1)}`,
  };
}
