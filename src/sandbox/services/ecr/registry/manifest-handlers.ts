import type { SandboxResponse } from '../../../request.js';
import { isDigest } from '../images/digests.js';
import type { RegistryCall } from './registry-call.js';
import { jsonResponse, RegistryError, registryResponse } from './registry-http.js';

/** HEAD / GET of a manifest by tag or digest, in the media type it was pushed with. */
export async function getManifest(call: RegistryCall, reference: string): Promise<SandboxResponse> {
  const manifest = await call.images.manifest(call.region, call.name, reference);
  const headers = {
    'content-type': manifest.mediaType,
    'docker-content-digest': manifest.digest,
    'content-length': String(manifest.bytes.length),
  };
  if (call.request.method === 'HEAD') return registryResponse(200, headers);
  return registryResponse(200, headers, manifest.bytes);
}

export async function putManifest(call: RegistryCall, reference: string): Promise<SandboxResponse> {
  const { digest } = await call.images.putManifest(call.region, call.name, call.request.body, {
    ...(call.request.headers['content-type'] ? { contentType: call.request.headers['content-type'] } : {}),
    reference,
    immutableTags: call.immutableTags,
  });
  return registryResponse(201, {
    location: `${call.base}/manifests/${digest}`,
    'docker-content-digest': digest,
  });
}

/** DELETE by digest removes the image (and its tags); by tag, only the tag. */
export async function deleteManifest(call: RegistryCall, reference: string): Promise<SandboxResponse> {
  if (isDigest(reference)) await call.images.deleteImage(call.region, call.name, reference);
  else await call.images.untag(call.region, call.name, reference);
  return registryResponse(202, {});
}

/** The repository's tags in order, `n` at a time after `last`, with a Link to the next page. */
export function tagsList(call: RegistryCall): SandboxResponse {
  const all = call.images.tags(call.region, call.name);
  const last = call.query.get('last');
  const after = last === null ? all : all.filter((tag) => tag > last);
  const n = call.query.get('n');
  if (n === null) return jsonResponse({ name: call.name, tags: after });
  const size = Number(n);
  if (!Number.isInteger(size) || size < 0)
    throw new RegistryError('SIZE_INVALID', `invalid page size n=${n}`);
  const page = after.slice(0, size);
  const more = page.length > 0 && after.length > page.length;
  const next = `${call.base}/tags/list?n=${size}&last=${encodeURIComponent(page[page.length - 1] ?? '')}`;
  return jsonResponse({ name: call.name, tags: page }, more ? { link: `<${next}>; rel="next"` } : {});
}
