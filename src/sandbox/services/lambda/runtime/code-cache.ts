import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { unzipSync } from 'fflate';
import { SandboxError } from '../../../errors.js';
import type { SandboxContext } from '../../../service-module.js';
import { s3ObjectReader } from '../../../ports/index.js';
import { CODE_BLOBS } from '../code.js';
import { findSdkDirectory } from '../../../../lambda-runtime/node/sdk-settings.js';
import type { CodeRecord } from '../model.js';
import { isSymlink, zipModes } from './zip-modes.js';

const PARTIAL = '.partial';
/**
 * Packages are unzipped under `code/<LAYOUT>/`; a sandbox that unzipped them another way
 * (before file modes were kept) left them beside it, and they are cleared.
 */
const LAYOUT = 'v2';

/**
 * Deployment packages and layers unzipped on disk, once per content (the directory is
 * named by the package's SHA-256, so every version with the same code shares it).
 * `<root>/node_modules/@aws-sdk` links to the SDK the sandbox itself uses: Node's module
 * lookup walks up from the code to it, so handlers import the SDK as on Lambda, from
 * CommonJS and ESM alike.
 */
export class CodeCache {
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly root: string,
    private readonly context: SandboxContext,
  ) {}

  /**
   * Removes half-extracted packages a killed sandbox left, and links the SDK in (or
   * re-points a link a sandbox from another checkout left on this data dir).
   */
  async prepare(): Promise<void> {
    const code = join(this.root, 'code');
    for (const name of await readdir(code).catch(() => [])) {
      if (name !== LAYOUT && name !== 'package.json')
        await rm(join(code, name), { recursive: true, force: true });
    }
    for (const name of await readdir(join(code, LAYOUT)).catch(() => [])) {
      if (name.endsWith(PARTIAL)) await rm(join(code, LAYOUT, name), { recursive: true, force: true });
    }
    // On Lambda nothing above /var/task has a package.json; here the data dir may sit in a
    // project whose package.json says "type": "module", which would make a package's .js
    // files ES modules. This one, above every package, ends Node's lookup as Lambda's does.
    await mkdir(code, { recursive: true });
    await writeFile(join(code, 'package.json'), '{}\n');
    const sdk = findSdkDirectory();
    if (!sdk) return;
    const link = join(this.root, 'node_modules', '@aws-sdk');
    if ((await readlink(link).catch(() => undefined)) === sdk) return;
    await mkdir(dirname(link), { recursive: true });
    await rm(link, { force: true });
    await symlink(sdk, link, 'dir');
  }

  /** A directory of the cache's own for scratch work (the layers' mount namespace). */
  get scratch(): string {
    return join(this.root, 'scratch');
  }

  /** The directory holding the package's files, extracting it on first use. */
  directory(code: CodeRecord): Promise<string> {
    const name = Buffer.from(code.sha256, 'base64').toString('hex');
    let extracted = this.pending.get(name);
    if (!extracted) {
      extracted = this.extract(name, code);
      this.pending.set(name, extracted);
      extracted.catch(() => this.pending.delete(name));
    }
    return extracted;
  }

  /**
   * The function's layers merged as Lambda merges them into /opt (each layer's files over the
   * earlier ones'), made once per list of layers from hard links; a single layer is its own
   * directory. Undefined for a function without layers.
   */
  async optDirectory(layers: readonly string[]): Promise<string | undefined> {
    if (layers.length <= 1) return layers[0];
    const name = `opt-${createHash('sha256').update(layers.join('\n')).digest('hex').slice(0, 40)}`;
    let merged = this.pending.get(name);
    if (!merged) {
      merged = this.inPlace(join(this.root, 'code', LAYOUT, name), async (staging) => {
        for (const layer of layers) await mergeTree(layer, staging);
      });
      this.pending.set(name, merged);
      merged.catch(() => this.pending.delete(name));
    }
    return merged;
  }

  private async extract(name: string, code: CodeRecord): Promise<string> {
    return this.inPlace(join(this.root, 'code', LAYOUT, name), async (staging) => {
      const bytes = await this.bytes(code);
      const files = unzip(bytes);
      const modes = zipModes(bytes);
      for (const [path, data] of Object.entries(files)) {
        if (path.endsWith('/')) continue;
        const file = resolve(staging, path);
        if (!file.startsWith(staging + sep)) continue;
        await mkdir(dirname(file), { recursive: true });
        const mode = modes.get(path);
        if (isSymlink(mode)) {
          await symlink(Buffer.from(data).toString('utf8'), file);
          continue;
        }
        await writeFile(file, data);
        if (mode !== undefined) await chmod(file, mode & 0o7777);
      }
    });
  }

  /**
   * The directory at `target`, made by `fill` if it is not there yet: written aside and
   * renamed into place, so a killed sandbox never leaves half of it.
   */
  private async inPlace(target: string, fill: (staging: string) => Promise<void>): Promise<string> {
    if (existsSync(target)) return target;
    const staging = `${target}.${randomUUID()}${PARTIAL}`;
    await mkdir(staging, { recursive: true });
    try {
      await fill(staging);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    try {
      await rename(staging, target);
    } catch (error) {
      // Another sandbox on this data dir made the same directory first.
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(target)) throw error;
    }
    return target;
  }

  private async bytes(code: CodeRecord): Promise<Buffer> {
    if (code.blob !== undefined) return this.context.storage.getBlob(CODE_BLOBS, code.blob);
    // A function recorded before packages were kept: read its S3 object again.
    const reader = s3ObjectReader.of(this.context);
    const body =
      typeof code.source === 'object' && reader
        ? await reader.read(code.source.bucket, code.source.key, code.source.version)
        : undefined;
    if (!Buffer.isBuffer(body)) throw badPackage('the deployment package is no longer available');
    return body;
  }
}

function unzip(bytes: Buffer): Record<string, Uint8Array> {
  try {
    return unzipSync(new Uint8Array(bytes));
  } catch (error) {
    throw badPackage(`Could not unzip uploaded file (${(error as Error).message})`);
  }
}

function badPackage(detail: string): SandboxError {
  return new SandboxError(
    'InvalidZipFileException',
    `Lambda was unable to unzip the deployment package: ${detail}. Update the function code with a valid .zip file.`,
    502,
  );
}

/** Copies `source`'s tree into `target` as hard links (copies across file systems), replacing what is there. */
async function mergeTree(source: string, target: string): Promise<void> {
  for (const entry of await readdir(source, { withFileTypes: true })) {
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    if (entry.isDirectory()) {
      const existing = await lstat(to).catch(() => undefined);
      if (existing && !existing.isDirectory()) await rm(to, { force: true });
      await mkdir(to, { recursive: true });
      await mergeTree(from, to);
      continue;
    }
    await rm(to, { recursive: true, force: true });
    if (entry.isSymbolicLink()) await symlink(await readlink(from), to);
    else await link(from, to).catch(() => copyFile(from, to));
  }
}
