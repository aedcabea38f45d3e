import { randomUUID } from 'node:crypto';
import type { ImageStore } from './image-store.js';
import { isDigest, sha256Digest } from './digests.js';

export interface Upload {
  id: string;
  region: string;
  repository: string;
  chunks: Buffer[];
  size: number;
}

/** Why an upload step was refused. */
export class UploadError extends Error {
  constructor(
    readonly failure: 'UploadUnknown' | 'RangeInvalid' | 'DigestInvalid',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Blob uploads in progress, for the registry protocol (POST / PATCH / PUT) and ECR's
 * InitiateLayerUpload / UploadLayerPart / CompleteLayerUpload alike. Parts are kept in
 * memory until the upload completes; a completed blob goes to the blob store only when
 * its bytes hash to the digest the client named.
 */
export class Uploads {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly images: ImageStore) {}

  start(region: string, repository: string): Upload {
    const upload = { id: randomUUID(), region, repository, chunks: [], size: 0 };
    this.uploads.set(upload.id, upload);
    return upload;
  }

  /** The upload, which must belong to this repository. */
  get(region: string, repository: string, id: string): Upload {
    const upload = this.uploads.get(id);
    if (!upload || upload.region !== region || upload.repository !== repository) {
      throw new UploadError('UploadUnknown', `upload ${id} is not in progress for ${repository}`);
    }
    return upload;
  }

  /** Appends a part; `firstByte`, when given, must be where the upload stands. */
  append(upload: Upload, data: Buffer, firstByte?: number): void {
    if (firstByte !== undefined && firstByte !== upload.size) {
      throw new UploadError(
        'RangeInvalid',
        `the part starts at byte ${firstByte} but the upload holds ${upload.size} bytes`,
      );
    }
    upload.chunks.push(data);
    upload.size += data.length;
  }

  /** Verifies the content against `digest`, stores it and links it to the repository. */
  async complete(upload: Upload, digest: string): Promise<string> {
    if (!isDigest(digest)) {
      throw new UploadError(
        'DigestInvalid',
        `invalid digest ${digest}: the registry accepts sha256:<64 hex>`,
      );
    }
    const data = Buffer.concat(upload.chunks);
    const actual = sha256Digest(data);
    if (actual !== digest) {
      throw new UploadError('DigestInvalid', `the uploaded content's digest is ${actual}, not ${digest}`);
    }
    this.uploads.delete(upload.id);
    await this.images.blobs.put(data);
    await this.images.linkBlob(upload.region, upload.repository, digest);
    return digest;
  }

  cancel(upload: Upload): void {
    this.uploads.delete(upload.id);
  }

  /** Drops the uploads into a repository that is being deleted. */
  forget(region: string, repository: string): void {
    for (const upload of [...this.uploads.values()])
      if (upload.region === region && upload.repository === repository) this.uploads.delete(upload.id);
  }
}
