import { createHash } from 'node:crypto';
import type { Storage } from '../../storage/storage.js';
import type { BucketRecord, ObjectVersion } from './model.js';

const BUCKETS = 's3/buckets';
const objectsNs = (bucket: string): string => `s3/objects/${bucket}`;
const blobsNs = (bucket: string): string => `s3/blobs/${bucket}`;
const versionDocId = (version: ObjectVersion): string =>
  `${createHash('sha256').update(version.key).digest('hex').slice(0, 40)}.${version.versionId}`;

export interface BucketState {
  record: BucketRecord;
  /** Versions per key, newest first. Changed only through S3Store (which keeps its counts). */
  objects: Map<string, ObjectVersion[]>;
}

/** A bucket's current objects (newest version not a delete marker) and all its versions. */
export interface ObjectCounts {
  objects: number;
  versions: number;
}

/**
 * S3 state: in memory, written through to storage. Each mutating method changes memory
 * synchronously before its first await, so check-then-write sequences in a handler (e.g.
 * `If-None-Match: *`) are atomic with respect to other requests.
 */
export class S3Store {
  private readonly buckets = new Map<string, BucketState>();
  private seq = 0;
  /** objectCounts per bucket, dropped when one of its versions is added or removed. */
  private readonly counts = new WeakMap<BucketState, ObjectCounts>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<S3Store> {
    const store = new S3Store(storage);
    for (const { doc: record } of await storage.listDocuments<BucketRecord>(BUCKETS)) {
      const state: BucketState = { record, objects: new Map() };
      const versions = await storage.listDocuments<ObjectVersion>(objectsNs(record.name));
      for (const { doc: version } of versions.sort((a, b) => b.doc.seq - a.doc.seq)) {
        const list = state.objects.get(version.key) ?? [];
        list.push(version);
        state.objects.set(version.key, list);
        store.seq = Math.max(store.seq, version.seq);
      }
      store.buckets.set(record.name, state);
      await store.removeOrphanBlobs(state);
    }
    return store;
  }

  bucketNames(): string[] {
    return [...this.buckets.keys()].sort();
  }

  bucket(name: string): BucketState | undefined {
    return this.buckets.get(name);
  }

  createBucket(record: BucketRecord): Promise<void> {
    this.buckets.set(record.name, { record, objects: new Map() });
    return this.storage.putDocument(BUCKETS, record.name, record);
  }

  saveBucket(state: BucketState): Promise<void> {
    return this.storage.putDocument(BUCKETS, state.record.name, state.record);
  }

  async deleteBucket(name: string): Promise<void> {
    this.buckets.delete(name);
    await this.storage.deleteDocument(BUCKETS, name);
    await this.storage.deleteNamespace(objectsNs(name));
    await this.storage.deleteNamespace(blobsNs(name));
  }

  /** The bucket's object and version counts (the inventory asks for them on every call). */
  objectCounts(state: BucketState): ObjectCounts {
    let counts = this.counts.get(state);
    if (counts === undefined) {
      counts = { objects: 0, versions: 0 };
      for (const versions of state.objects.values()) {
        counts.versions += versions.length;
        if (versions[0] && !versions[0].deleteMarker) counts.objects += 1;
      }
      this.counts.set(state, counts);
    }
    return counts;
  }

  nextSeq(): number {
    return ++this.seq;
  }

  putBody(bucket: string, body: Buffer): Promise<string> {
    return this.storage.putBlob(blobsNs(bucket), body);
  }

  readBody(bucket: string, version: ObjectVersion): Promise<Buffer> {
    if (version.blobId === undefined) return Promise.resolve(Buffer.alloc(0));
    return this.storage.getBlob(blobsNs(bucket), version.blobId);
  }

  discardBody(bucket: string, blobId: string): Promise<void> {
    return this.storage.deleteBlob(blobsNs(bucket), blobId);
  }

  /** Adds a version as the newest for its key; a 'null' version replaces the previous 'null'. */
  async addVersion(state: BucketState, version: ObjectVersion): Promise<void> {
    const list = state.objects.get(version.key) ?? [];
    const replaced = version.versionId === 'null' ? list.find((v) => v.versionId === 'null') : undefined;
    state.objects.set(version.key, [version, ...list.filter((v) => v !== replaced)]);
    this.counts.delete(state);
    await this.storage.putDocument(objectsNs(state.record.name), versionDocId(version), version);
    if (replaced?.blobId !== undefined) await this.discardBody(state.record.name, replaced.blobId);
  }

  async removeVersion(state: BucketState, version: ObjectVersion): Promise<void> {
    const remaining = (state.objects.get(version.key) ?? []).filter((v) => v !== version);
    if (remaining.length > 0) state.objects.set(version.key, remaining);
    else state.objects.delete(version.key);
    this.counts.delete(state);
    await this.storage.deleteDocument(objectsNs(state.record.name), versionDocId(version));
    if (version.blobId !== undefined) await this.discardBody(state.record.name, version.blobId);
  }

  /** Bodies written by a process killed before it recorded their version. */
  private async removeOrphanBlobs(state: BucketState): Promise<void> {
    const referenced = new Set<string>();
    for (const versions of state.objects.values()) {
      for (const version of versions) if (version.blobId !== undefined) referenced.add(version.blobId);
    }
    for (const blobId of await this.storage.listBlobs(blobsNs(state.record.name))) {
      if (!referenced.has(blobId)) await this.discardBody(state.record.name, blobId);
    }
  }
}

/** The newest version of a key (possibly a delete marker). */
export function latest(state: BucketState, key: string): ObjectVersion | undefined {
  return state.objects.get(key)?.[0];
}

export function findVersion(state: BucketState, key: string, versionId: string): ObjectVersion | undefined {
  return state.objects.get(key)?.find((version) => version.versionId === versionId);
}
