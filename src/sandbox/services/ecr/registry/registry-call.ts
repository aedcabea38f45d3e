import type { IngressRequest } from '../../../ingress.js';
import { ImageStoreError, type ImageStore } from '../images/image-store.js';
import { UploadError, type Uploads } from '../images/uploads.js';
import { RegistryError } from './registry-http.js';

/** One registry request addressed to a repository that exists. */
export interface RegistryCall {
  request: IngressRequest;
  query: URLSearchParams;
  region: string;
  /** The repository's name, and its path under the registry (`/v2/<name>`). */
  name: string;
  base: string;
  images: ImageStore;
  uploads: Uploads;
  immutableTags: boolean;
}

/** The registry's words for what the image store and uploads refused. */
export function registryError(error: unknown): unknown {
  if (error instanceof UploadError) {
    switch (error.failure) {
      case 'UploadUnknown':
        return new RegistryError('BLOB_UPLOAD_UNKNOWN', 'blob upload unknown to registry', error.message);
      case 'RangeInvalid':
        return new RegistryError('BLOB_UPLOAD_INVALID', 'blob upload invalid', error.message, 416);
      case 'DigestInvalid':
        return new RegistryError(
          'DIGEST_INVALID',
          'provided digest did not match uploaded content',
          error.message,
        );
    }
  }
  if (error instanceof ImageStoreError) {
    switch (error.failure) {
      case 'ManifestInvalid':
        return new RegistryError('MANIFEST_INVALID', 'manifest invalid', error.message);
      case 'BlobUnknown':
        return new RegistryError('MANIFEST_BLOB_UNKNOWN', 'blob unknown to registry', error.subject);
      case 'ManifestUnknown':
        return new RegistryError('MANIFEST_UNKNOWN', 'manifest unknown', error.message);
      case 'DigestMismatch':
        return new RegistryError(
          'DIGEST_INVALID',
          'provided digest did not match uploaded content',
          error.message,
        );
      case 'TagInvalid':
      case 'TagImmutable':
        return new RegistryError('TAG_INVALID', error.message);
      case 'ReferencedByIndex':
        return new RegistryError('DENIED', error.message);
    }
  }
  return error;
}
