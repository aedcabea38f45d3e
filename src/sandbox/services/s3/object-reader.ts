import type { S3ObjectReader } from '../../ports/index.js';
import { findVersion, latest, type S3Store } from './store.js';

/** S3's side of the object-reader port: the current or a given version's body, or S3's error code; removal of a key. */
export function objectReader(store: S3Store): S3ObjectReader {
  return {
    async read(bucket, key, versionId) {
      const state = store.bucket(bucket);
      if (!state) return 'NoSuchBucket';
      const version = versionId === undefined ? latest(state, key) : findVersion(state, key, versionId);
      if (!version) return versionId === undefined ? 'NoSuchKey' : 'NoSuchVersion';
      if (version.deleteMarker) return 'NoSuchKey';
      return store.readBody(bucket, version);
    },
    async remove(bucket, key) {
      const state = store.bucket(bucket);
      for (const version of [...(state?.objects.get(key) ?? [])]) await store.removeVersion(state!, version);
    },
  };
}
