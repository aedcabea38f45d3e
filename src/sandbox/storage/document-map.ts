import type { Storage } from './storage.js';

/**
 * A namespace of documents held in memory and written through to storage: the store of a
 * module whose records are independent documents keyed by an id it chooses.
 */
export class DocumentMap<T> {
  private readonly docs = new Map<string, T>();

  private constructor(
    private readonly storage: Storage,
    private readonly namespace: string,
  ) {}

  static async load<T>(storage: Storage, namespace: string): Promise<DocumentMap<T>> {
    const map = new DocumentMap<T>(storage, namespace);
    for (const { id, doc } of await storage.listDocuments<T>(namespace)) map.docs.set(id, doc);
    return map;
  }

  get(id: string): T | undefined {
    return this.docs.get(id);
  }

  values(): T[] {
    return [...this.docs.values()];
  }

  put(id: string, doc: T): Promise<void> {
    this.docs.set(id, doc);
    return this.storage.putDocument(this.namespace, id, doc);
  }

  delete(id: string): Promise<void> {
    this.docs.delete(id);
    return this.storage.deleteDocument(this.namespace, id);
  }
}
