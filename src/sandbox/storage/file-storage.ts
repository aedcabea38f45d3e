import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newBlobId, type Storage } from './storage.js';

const DOC_SUFFIX = '.json';
const BLOB_SUFFIX = '.blob';
const TMP_SUFFIX = '.tmp';

/**
 * Storage under a data directory: `<dir>/<namespace>/<id>.json` and `<id>.blob`. Every
 * write goes to a temp file first and is renamed into place, so a killed process leaves
 * either the old or the new file, never a torn one. Writes are applied in call order
 * (one queue), so the last write to a document is the one on disk.
 */
export class FileStorage implements Storage {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly root: string) {}

  /**
   * Opens (creating if needed) a data directory, removing temp files a killed process left.
   * Top-level dot directories are not storage (Lambda's unzipped code sits in one) and are
   * left alone.
   */
  static async open(root: string): Promise<FileStorage> {
    await mkdir(root, { recursive: true });
    for (const top of await readdir(root, { withFileTypes: true })) {
      if (top.name.startsWith('.')) continue;
      const entries = top.isDirectory()
        ? await readdir(join(root, top.name), { recursive: true, withFileTypes: true })
        : [top];
      for (const entry of entries) {
        if (entry.isFile() && entry.name.endsWith(TMP_SUFFIX))
          await unlink(join(entry.parentPath, entry.name));
      }
    }
    return new FileStorage(root);
  }

  async listDocuments<T>(namespace: string): Promise<Array<{ id: string; doc: T }>> {
    const dir = this.dir(namespace);
    const docs: Array<{ id: string; doc: T }> = [];
    for (const name of await listDir(dir)) {
      if (!name.endsWith(DOC_SUFFIX)) continue;
      const file = join(dir, name);
      docs.push({ id: decodeURIComponent(name.slice(0, -DOC_SUFFIX.length)), doc: await readJson<T>(file) });
    }
    return docs;
  }

  putDocument(namespace: string, id: string, doc: unknown): Promise<void> {
    const file = join(this.dir(namespace), `${encodeURIComponent(id)}${DOC_SUFFIX}`);
    return this.serially(() => atomicWrite(file, JSON.stringify(doc, null, 2)));
  }

  deleteDocument(namespace: string, id: string): Promise<void> {
    const file = join(this.dir(namespace), `${encodeURIComponent(id)}${DOC_SUFFIX}`);
    return this.serially(() => rm(file, { force: true }));
  }

  async putBlob(namespace: string, data: Buffer): Promise<string> {
    const id = newBlobId();
    await this.serially(() => atomicWrite(join(this.dir(namespace), `${id}${BLOB_SUFFIX}`), data));
    return id;
  }

  getBlob(namespace: string, id: string): Promise<Buffer> {
    return readFile(join(this.dir(namespace), `${id}${BLOB_SUFFIX}`));
  }

  deleteBlob(namespace: string, id: string): Promise<void> {
    return this.serially(() => rm(join(this.dir(namespace), `${id}${BLOB_SUFFIX}`), { force: true }));
  }

  async listBlobs(namespace: string): Promise<string[]> {
    const names = await listDir(this.dir(namespace));
    return names
      .filter((name) => name.endsWith(BLOB_SUFFIX))
      .map((name) => name.slice(0, -BLOB_SUFFIX.length));
  }

  deleteNamespace(namespace: string): Promise<void> {
    return this.serially(() => rm(this.dir(namespace), { recursive: true, force: true }));
  }

  private dir(namespace: string): string {
    return join(this.root, ...namespace.split('/').map(encodeURIComponent));
  }

  private serially(write: () => Promise<void>): Promise<void> {
    const next = this.queue.then(write);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

async function atomicWrite(file: string, data: string | Buffer): Promise<void> {
  const temp = `${file}.${newBlobId()}${TMP_SUFFIX}`;
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(temp, data);
  await rename(temp, file);
}

async function readJson<T>(file: string): Promise<T> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`sandbox data file ${file} is not valid JSON; fix or delete it`, { cause: error });
  }
}

/** Entries of a directory, minus temp files of writes in flight. */
async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => !name.endsWith(TMP_SUFFIX));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
