import type { SandboxRequest } from '../../request.js';
import { subresourceOperation } from './bucket-subresource-ops.js';

/** The bucket and key a request addresses (path style `/bucket/key`, or `bucket.localhost`). */
export interface S3Target {
  bucket: string;
  key: string;
}

export function s3Target(request: SandboxRequest): S3Target {
  const host = (request.headers['host'] ?? '').replace(/:\d+$/, '');
  const path = request.path.replace(/^\//, '');
  // Virtual-hosted style against a local endpoint: `my-bucket.localhost:4566/key`.
  const virtualBucket = /^(.+)\.localhost$/.exec(host)?.[1];
  if (virtualBucket !== undefined) return { bucket: virtualBucket, key: decode(path) };
  const slash = path.indexOf('/');
  if (slash < 0) return { bucket: decode(path), key: '' };
  return { bucket: decode(path.slice(0, slash)), key: decode(path.slice(slash + 1)) };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Bucket subresources that select an operation, in the query string. */
const SUBRESOURCES = [
  'versioning',
  'encryption',
  'publicAccessBlock',
  'policy',
  'tagging',
  'location',
] as const;
type Subresource = (typeof SUBRESOURCES)[number];

const BUCKET_CONFIG_OPS: Record<string, Partial<Record<Subresource, string>>> = {
  PUT: {
    versioning: 'PutBucketVersioning',
    encryption: 'PutBucketEncryption',
    publicAccessBlock: 'PutPublicAccessBlock',
    policy: 'PutBucketPolicy',
    tagging: 'PutBucketTagging',
  },
  GET: {
    versioning: 'GetBucketVersioning',
    encryption: 'GetBucketEncryption',
    publicAccessBlock: 'GetPublicAccessBlock',
    policy: 'GetBucketPolicy',
    tagging: 'GetBucketTagging',
    location: 'GetBucketLocation',
  },
  DELETE: {
    encryption: 'DeleteBucketEncryption',
    publicAccessBlock: 'DeletePublicAccessBlock',
    policy: 'DeleteBucketPolicy',
    tagging: 'DeleteBucketTagging',
  },
};

/**
 * AWS's operation name for a REST request, from method + path + query (+ copy-source
 * header). A request the sandbox cannot name is called by the SDK's `x-id` hint if it sent
 * one (it does for operations that share a method and path), else `Unsupported`.
 */
export function s3OperationName(request: SandboxRequest): string {
  const { method, query } = request;
  const { bucket, key } = s3Target(request);
  const fallback = query.get('x-id') ?? 'Unsupported';
  if (bucket === '') return method === 'GET' ? 'ListBuckets' : fallback;
  if (key !== '') return objectOperation(request) ?? fallback;
  const documentOperation = subresourceOperation(request);
  if (documentOperation) return documentOperation;
  const subresource = SUBRESOURCES.find((name) => query.has(name));
  if (subresource) return BUCKET_CONFIG_OPS[method]?.[subresource] ?? fallback;
  switch (method) {
    case 'PUT':
      return 'CreateBucket';
    case 'HEAD':
      return 'HeadBucket';
    case 'DELETE':
      return 'DeleteBucket';
    case 'POST':
      return query.has('delete') ? 'DeleteObjects' : fallback;
    case 'GET':
      if (query.has('versions')) return 'ListObjectVersions';
      if (query.get('list-type') === '2') return 'ListObjectsV2';
      return query.has('uploads') ? fallback : 'ListObjects';
  }
  return fallback;
}

function objectOperation(request: SandboxRequest): string | undefined {
  const { method, query } = request;
  if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
  if (query.has('uploadId')) {
    if (method === 'PUT' && query.has('partNumber') && request.headers['x-amz-copy-source'] === undefined) {
      return 'UploadPart';
    }
    if (method === 'POST') return 'CompleteMultipartUpload';
    if (method === 'DELETE') return 'AbortMultipartUpload';
  }
  // Object subresources (tagging, acl, uploads ...) are not modelled; they fall back to x-id.
  if (
    ['tagging', 'acl', 'uploads', 'uploadId', 'retention', 'legal-hold', 'attributes'].some((q) =>
      query.has(q),
    )
  ) {
    return undefined;
  }
  switch (method) {
    case 'PUT':
      return request.headers['x-amz-copy-source'] !== undefined ? 'CopyObject' : 'PutObject';
    case 'GET':
      return 'GetObject';
    case 'HEAD':
      return 'HeadObject';
    case 'DELETE':
      return 'DeleteObject';
  }
  return undefined;
}

const MUTATING_PREFIXES = ['Put', 'Create', 'Delete', 'Copy', 'Restore', 'Upload', 'Complete', 'Abort'];

export function isMutatingS3Operation(operation: string): boolean {
  return MUTATING_PREFIXES.some((prefix) => operation.startsWith(prefix));
}
