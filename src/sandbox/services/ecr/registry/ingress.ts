import { SandboxError } from '../../../errors.js';
import type { Ingress, IngressRequest } from '../../../ingress.js';
import type { SandboxResponse } from '../../../request.js';
import type { ImageStore } from '../images/image-store.js';
import type { Uploads } from '../images/uploads.js';
import type { Repositories } from '../repositories.js';
import { cancelUpload, getBlob, patchUpload, putUpload, startUpload, uploadStatus } from './blob-handlers.js';
import { deleteManifest, getManifest, putManifest, tagsList } from './manifest-handlers.js';
import { registryError, type RegistryCall } from './registry-call.js';
import { jsonResponse, RegistryError } from './registry-http.js';
import type { RegistryTokens } from './tokens.js';

/** `{account}.dkr.ecr.{region}.amazonaws.com` (and the China partition's suffix). */
const REGISTRY_HOST = /^(\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;
const REPOSITORY_PATH =
  /^\/v2\/(.+?)\/(?:manifests\/([^/]+)|blobs\/uploads\/([^/]*)|blobs\/([^/]+)|(tags)\/list)$/;

export interface RegistryDeps {
  repositories: Repositories;
  images: ImageStore;
  uploads: Uploads;
  tokens: RegistryTokens;
  /** The sandbox's home region: a path-style request made without a token acts there. */
  region: string;
}

type Route =
  | { kind: 'ping' | 'catalog' | 'unknown' }
  | { kind: 'manifest'; name: string; reference: string }
  | { kind: 'upload'; name: string; id: string }
  | { kind: 'blob'; name: string; digest: string }
  | { kind: 'tags'; name: string };

const MUTATING = new Set([
  'StartBlobUpload',
  'PatchBlobUpload',
  'PutBlobUpload',
  'CancelBlobUpload',
  'PutManifest',
  'DeleteManifest',
]);

/**
 * The Docker Registry HTTP API v2 / OCI distribution protocol over ECR's repositories, on
 * the sandbox's port: requests with an ECR registry Host (`{account}.dkr.ecr.{region}.amazonaws.com`),
 * and unsigned requests under `/v2/` (a client pointed at `127.0.0.1:<port>`). Every
 * request but the challenge needs Basic auth of `AWS:<password>` from GetAuthorizationToken;
 * the token's region is the registry a path-style request reaches.
 */
export function registryIngress(deps: RegistryDeps): Ingress {
  return {
    claim: (request) => (addressed(request) ? operationOf(request, route(request.path)) : undefined),
    mutating: (operation) => MUTATING.has(operation),
    serve: async (request) => {
      try {
        return await serve(deps, request);
      } catch (error) {
        const mapped = registryError(error);
        if (mapped instanceof RegistryError) return mapped.response();
        throw mapped;
      }
    },
    endpoints: () => [],
  };
}

function addressed(request: IngressRequest): boolean {
  if (REGISTRY_HOST.test(request.host)) return true;
  return request.signedFor === undefined && (request.path === '/v2' || request.path.startsWith('/v2/'));
}

async function serve(deps: RegistryDeps, request: IngressRequest): Promise<SandboxResponse> {
  const host = REGISTRY_HOST.exec(request.host);
  const grant = deps.tokens.verify(request.headers.authorization);
  const challengeRegion = host?.[2] ?? (typeof grant === 'object' ? grant.region : deps.region);
  const challengeAccount = host?.[1] ?? deps.repositories.registryId;
  if (grant === undefined) {
    throw new RegistryError('UNAUTHORIZED', 'authentication required', undefined, 401, {
      'www-authenticate': `Basic realm="https://${challengeAccount}.dkr.ecr.${challengeRegion}.amazonaws.com/",service="ecr.amazonaws.com"`,
    });
  }
  if (grant === 'expired') {
    throw new RegistryError('DENIED', 'Your authorization token has expired. Reauthenticate and try again.');
  }
  if (host && host[2] !== grant.region) {
    throw new RegistryError(
      'DENIED',
      `Your authorization token is for the registry in ${grant.region}; this registry is in ${host[2]}. Call GetAuthorizationToken in ${host[2]}.`,
    );
  }
  const region = grant.region;
  const where = route(request.path);
  switch (where.kind) {
    case 'ping':
      return jsonResponse({});
    case 'catalog':
      return jsonResponse({
        repositories: deps.repositories
          .list(region)
          .map((model) => String(model.RepositoryName))
          .sort(),
      });
    case 'unknown':
      throw new RegistryError(
        'UNSUPPORTED',
        `the registry serves no ${request.method} ${request.path}`,
        undefined,
        404,
      );
  }
  const call = repositoryCall(deps, request, region, where.name);
  switch (where.kind) {
    case 'manifest':
      return manifestRequest(call, where.reference);
    case 'blob':
      if (request.method === 'HEAD' || request.method === 'GET') return getBlob(call, where.digest);
      throw new RegistryError(
        'UNSUPPORTED',
        'The operation is unsupported.',
        `${request.method} of a blob`,
        405,
      );
    case 'upload':
      return uploadRequest(deps, call, where.id);
    case 'tags':
      if (request.method === 'GET') return tagsList(call);
      throw new RegistryError('UNSUPPORTED', 'The operation is unsupported.', undefined, 405);
  }
}

function manifestRequest(call: RegistryCall, reference: string): Promise<SandboxResponse> {
  switch (call.request.method) {
    case 'HEAD':
    case 'GET':
      return getManifest(call, reference);
    case 'PUT':
      return putManifest(call, reference);
    case 'DELETE':
      return deleteManifest(call, reference);
    default:
      throw new RegistryError('UNSUPPORTED', 'The operation is unsupported.', undefined, 405);
  }
}

async function uploadRequest(deps: RegistryDeps, call: RegistryCall, id: string): Promise<SandboxResponse> {
  const method = call.request.method;
  if (id === '') {
    if (method !== 'POST')
      throw new RegistryError('UNSUPPORTED', 'The operation is unsupported.', undefined, 405);
    return startUpload(
      call,
      (from, digest) => exists(deps, call.region, from) && deps.images.hasBlob(call.region, from, digest),
    );
  }
  const upload = call.uploads.get(call.region, call.name, id);
  switch (method) {
    case 'GET':
      return uploadStatus(call, upload);
    case 'PATCH':
      return patchUpload(call, upload);
    case 'PUT':
      return putUpload(call, upload);
    case 'DELETE':
      return cancelUpload(call, upload);
    default:
      throw new RegistryError('UNSUPPORTED', 'The operation is unsupported.', undefined, 405);
  }
}

function repositoryCall(
  deps: RegistryDeps,
  request: IngressRequest,
  region: string,
  name: string,
): RegistryCall {
  let model;
  try {
    model = deps.repositories.get(region, name);
  } catch (error) {
    if (error instanceof SandboxError) throw new RegistryError('NAME_UNKNOWN', error.message, { name });
    throw error;
  }
  return {
    request,
    query: new URLSearchParams(request.rawQuery),
    region,
    name,
    base: `/v2/${name}`,
    images: deps.images,
    uploads: deps.uploads,
    immutableTags: model.ImageTagMutability === 'IMMUTABLE',
  };
}

function exists(deps: RegistryDeps, region: string, name: string): boolean {
  try {
    deps.repositories.get(region, name);
    return true;
  } catch {
    return false;
  }
}

function route(path: string): Route {
  if (path === '/v2' || path === '/v2/') return { kind: 'ping' };
  if (path === '/v2/_catalog') return { kind: 'catalog' };
  const match = REPOSITORY_PATH.exec(path);
  if (!match) return { kind: 'unknown' };
  const name = match[1]!;
  if (match[2] !== undefined) return { kind: 'manifest', name, reference: decodeURIComponent(match[2]) };
  if (match[3] !== undefined) return { kind: 'upload', name, id: match[3] };
  if (match[4] !== undefined) return { kind: 'blob', name, digest: decodeURIComponent(match[4]) };
  return { kind: 'tags', name };
}

/** The operation a request counts as (the call counter and faults key on it). */
function operationOf(request: IngressRequest, where: Route): string {
  const method = request.method;
  switch (where.kind) {
    case 'ping':
      return 'RegistryPing';
    case 'catalog':
      return 'RegistryCatalog';
    case 'unknown':
      return 'RegistryUnknown';
    case 'manifest':
      return method === 'PUT'
        ? 'PutManifest'
        : method === 'DELETE'
          ? 'DeleteManifest'
          : method === 'HEAD'
            ? 'HeadManifest'
            : 'GetManifest';
    case 'blob':
      return method === 'HEAD' ? 'HeadBlob' : 'GetBlob';
    case 'upload':
      if (where.id === '') return 'StartBlobUpload';
      return method === 'PATCH'
        ? 'PatchBlobUpload'
        : method === 'PUT'
          ? 'PutBlobUpload'
          : method === 'DELETE'
            ? 'CancelBlobUpload'
            : 'GetBlobUpload';
    case 'tags':
      return 'ListTags';
  }
}
