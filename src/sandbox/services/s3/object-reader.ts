import type { SandboxContext } from '../../service-module.js';
import { findVersion, latest, type S3Store } from './store.js';

/** Why an object could not be read, in S3's own error codes (Lambda quotes them). */
export type S3ReadFailure = 'NoSuchBucket' | 'NoSuchKey' | 'NoSuchVersion';

/**
 * Read-only access to object bodies for other sandbox modules (Lambda reads deployment
 * packages), so they never reach into S3's store.
 */
export interface S3ObjectReader {
  read(bucket: string, key: string, versionId?: string): Promise<Buffer | S3ReadFailure>;
}

const readers = new WeakMap<SandboxContext, S3ObjectReader>();

/** The reader of the sandbox the context belongs to; undefined when S3 is not served. */
export function s3ObjectReader(context: SandboxContext): S3ObjectReader | undefined {
  return readers.get(context);
}

export function exposeObjectReader(context: SandboxContext, store: S3Store): void {
  readers.set(context, {
    async read(bucket, key, versionId) {
      const state = store.bucket(bucket);
      if (!state) return 'NoSuchBucket';
      const version = versionId === undefined ? latest(state, key) : findVersion(state, key, versionId);
      if (!version) return versionId === undefined ? 'NoSuchKey' : 'NoSuchVersion';
      if (version.deleteMarker) return 'NoSuchKey';
      return store.readBody(bucket, version);
    },
  });
}
