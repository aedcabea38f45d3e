import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { StackArtifact } from '../../assembly/index.js';
import { isWithin } from '../../assembly/paths.js';
import { refOf, resourcesOf } from '../serve/template-refs.js';

/** An object as an origin bucket answers it. */
export interface BucketObject {
  body: Buffer;
  contentType: string;
}

/**
 * Reads an object of a bucket: the object, `missing` when the bucket has no such key, or
 * undefined when the bucket cannot be read (its stack is not deployed).
 */
export type BucketReader = (key: string) => Promise<BucketObject | 'missing'>;

/** A directory a `BucketDeployment` copies into a bucket, under a key prefix. */
export interface DeploymentSource {
  directory: string;
  prefix: string;
}

/**
 * The local directories `BucketDeployment`s (Custom::CDKBucketDeployment) of the stack copy
 * into a bucket: each source object key matched to the file asset the assembly stages for it.
 * A source that is a zip file or a generated object (Source.data) is named in `skipped`.
 */
export function deploymentSources(
  stack: StackArtifact,
  bucketId: string,
): { sources: DeploymentSource[]; skipped: string[] } {
  const sources: DeploymentSource[] = [];
  const skipped: string[] = [];
  for (const resource of Object.values(resourcesOf(stack.template))) {
    if (resource.Type !== 'Custom::CDKBucketDeployment') continue;
    const properties = resource.Properties ?? {};
    if (refOf(properties.DestinationBucketName) !== bucketId) continue;
    const prefix =
      typeof properties.DestinationBucketKeyPrefix === 'string' ? properties.DestinationBucketKeyPrefix : '';
    const keys = Array.isArray(properties.SourceObjectKeys) ? properties.SourceObjectKeys : [];
    for (const key of keys) {
      const asset = stack.assetManifests
        .flatMap((manifest) => manifest.files)
        .find((file) => file.destinations.some((destination) => destination.objectKey === key));
      if (asset?.packaging === 'zip' && asset.absoluteSourcePath)
        sources.push({ directory: asset.absoluteSourcePath, prefix: prefix.replace(/^\/+/, '') });
      else skipped.push(String(typeof key === 'string' ? key : JSON.stringify(key)));
    }
  }
  return { sources, skipped };
}

/**
 * Objects from deployment sources, as the bucket would hold them after the deployment: the
 * first source holding the key wins (later BucketDeployments of one bucket are rare; CDK
 * gives no order between them). A key that climbs out of a source directory is missing.
 */
export function sourceReader(sources: readonly DeploymentSource[]): BucketReader {
  return async (key) => {
    for (const source of sources) {
      if (!key.startsWith(source.prefix)) continue;
      const path = resolve(source.directory, key.slice(source.prefix.length));
      if (!isWithin(source.directory, path) || path === resolve(source.directory)) continue;
      if (!(await stat(path).catch(() => undefined))?.isFile()) continue;
      return { body: await readFile(path), contentType: contentTypeOf(key) };
    }
    return 'missing';
  };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
};

/** The Content-Type `BucketDeployment` gives an object (it guesses by extension, as `aws s3 sync` does). */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[extname(key).toLowerCase()] ?? 'application/octet-stream';
}
