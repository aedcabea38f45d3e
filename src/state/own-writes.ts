import { PreconditionFailed, type S3Objects, type WriteCondition } from './s3-objects.js';

/** Who wrote a stored document, stamped in it: a writer id per process and document, and its count of writes. */
export interface WriteStamp {
  writer: string;
  generation: number;
}

/**
 * A conditional write that tells its own landed write from another writer's. S3 can store a
 * write and lose the answer; the SDK then sends it again, and the precondition refuses the
 * repeat, since the first attempt already moved the object on. So a refused write reads what
 * is stored: a document stamped by the same writer is ours, either this write or a newer one
 * (its ETag is returned), or an earlier one whose answer was lost (this write goes again,
 * against it). A document another writer stamped, or none, stays a PreconditionFailed.
 */
export async function putOwnWrite(
  objects: S3Objects,
  key: string,
  text: string,
  condition: WriteCondition,
): Promise<string> {
  try {
    return await objects.put(key, text, condition);
  } catch (error) {
    if (!(error instanceof PreconditionFailed)) throw error;
    const ours = stampOf(text);
    const stored = ours ? await objects.get(key) : undefined;
    const found = stored ? stampOf(stored.text) : undefined;
    if (!ours || !stored || found?.writer !== ours.writer) throw error;
    if (found.generation >= ours.generation) return stored.etag;
    return putOwnWrite(objects, key, text, { ifMatch: stored.etag });
  }
}

function stampOf(text: string): WriteStamp | undefined {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof document !== 'object' || document === null) return undefined;
  const { writer, generation } = document as Partial<Record<keyof WriteStamp, unknown>>;
  return typeof writer === 'string' && typeof generation === 'number' ? { writer, generation } : undefined;
}
