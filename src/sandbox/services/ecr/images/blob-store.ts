import type { Storage } from '../../../storage/storage.js';
import { sha256Digest } from './digests.js';

const INDEX = 'ecr/blob-index';
const BLOBS = 'ecr/blobs';

interface BlobEntry {
  /** The storage blob holding the bytes. */
  blob: string;
  size: number;
}

/**
 * Every layer, config and manifest the registry holds, once per content: stored under its
 * sha256 digest, which is computed from the bytes (never taken from the client). Which
 * repository may serve a blob is the image store's concern; this store only keeps bytes.
 */
export class BlobStore {
  private readonly entries = new Map<string, BlobEntry>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<BlobStore> {
    const store = new BlobStore(storage);
    for (const { id, doc } of await storage.listDocuments<BlobEntry>(INDEX)) store.entries.set(id, doc);
    return store;
  }

  has(digest: string): boolean {
    return this.entries.has(digest);
  }

  size(digest: string): number | undefined {
    return this.entries.get(digest)?.size;
  }

  read(digest: string): Promise<Buffer> {
    const entry = this.entries.get(digest);
    if (!entry) return Promise.reject(new Error(`blob ${digest} is not stored`));
    return this.storage.getBlob(BLOBS, entry.blob);
  }

  /** Stores the bytes (once per content) and returns their digest. */
  async put(data: Buffer): Promise<string> {
    const digest = sha256Digest(data);
    if (this.entries.has(digest)) return digest;
    const entry = { blob: await this.storage.putBlob(BLOBS, data), size: data.length };
    if (this.entries.has(digest)) {
      // Another request stored the same content meanwhile: keep one copy.
      await this.storage.deleteBlob(BLOBS, entry.blob);
      return digest;
    }
    this.entries.set(digest, entry);
    await this.storage.putDocument(INDEX, digest, entry);
    return digest;
  }

  /** Removes every blob nothing uses, asked blob by blob (a push may link one meanwhile). */
  async collect(inUse: (digest: string) => boolean): Promise<void> {
    for (const [digest, entry] of [...this.entries]) {
      if (inUse(digest) || this.entries.get(digest) !== entry) continue;
      this.entries.delete(digest);
      await this.storage.deleteDocument(INDEX, digest);
      await this.storage.deleteBlob(BLOBS, entry.blob);
    }
  }
}
