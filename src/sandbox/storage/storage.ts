import { randomBytesPooled } from '../ids.js';

/**
 * Where service modules persist state: JSON documents and binary blobs, grouped in
 * namespaces (`s3/buckets`, `s3/objects/my-bucket`). Modules keep their working state in
 * memory and write through; on start they rebuild it from `listDocuments`.
 */
export interface Storage {
  listDocuments<T>(namespace: string): Promise<Array<{ id: string; doc: T }>>;
  putDocument(namespace: string, id: string, doc: unknown): Promise<void>;
  deleteDocument(namespace: string, id: string): Promise<void>;
  /** Stores a blob under a new id and returns it. */
  putBlob(namespace: string, data: Buffer): Promise<string>;
  getBlob(namespace: string, id: string): Promise<Buffer>;
  deleteBlob(namespace: string, id: string): Promise<void>;
  listBlobs(namespace: string): Promise<string[]>;
  /** Removes every document and blob in the namespace and below it. */
  deleteNamespace(namespace: string): Promise<void>;
}

export function newBlobId(): string {
  return randomBytesPooled(16).toString('hex');
}

/** Storage that lives and dies with the process. Documents are kept serialized, as on disk. */
export class MemoryStorage implements Storage {
  private readonly documents = new Map<string, Map<string, string>>();
  private readonly blobs = new Map<string, Map<string, Buffer>>();

  async listDocuments<T>(namespace: string): Promise<Array<{ id: string; doc: T }>> {
    return [...(this.documents.get(namespace) ?? new Map<string, string>())].map(([id, json]) => ({
      id,
      doc: JSON.parse(json) as T,
    }));
  }

  async putDocument(namespace: string, id: string, doc: unknown): Promise<void> {
    group(this.documents, namespace).set(id, JSON.stringify(doc));
  }

  async deleteDocument(namespace: string, id: string): Promise<void> {
    this.documents.get(namespace)?.delete(id);
  }

  async putBlob(namespace: string, data: Buffer): Promise<string> {
    const id = newBlobId();
    group(this.blobs, namespace).set(id, data);
    return id;
  }

  async getBlob(namespace: string, id: string): Promise<Buffer> {
    const data = this.blobs.get(namespace)?.get(id);
    if (data === undefined) throw new Error(`blob ${namespace}/${id} not found`);
    return data;
  }

  async deleteBlob(namespace: string, id: string): Promise<void> {
    this.blobs.get(namespace)?.delete(id);
  }

  async listBlobs(namespace: string): Promise<string[]> {
    return [...(this.blobs.get(namespace)?.keys() ?? [])];
  }

  async deleteNamespace(namespace: string): Promise<void> {
    for (const map of [this.documents, this.blobs]) {
      for (const key of [...map.keys()]) {
        if (key === namespace || key.startsWith(`${namespace}/`)) map.delete(key);
      }
    }
  }
}

function group<V>(map: Map<string, Map<string, V>>, namespace: string): Map<string, V> {
  let inner = map.get(namespace);
  if (!inner) map.set(namespace, (inner = new Map()));
  return inner;
}
