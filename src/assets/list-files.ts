import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CdkdError } from '../errors.js';

export interface ListedFile {
  /** Path inside the archive, `/`-separated. */
  name: string;
  /** Where the bytes are read from (through any symlinks). */
  absolutePath: string;
  /** The file's mode as stat reports it after following symlinks. */
  mode: number;
}

/**
 * Every regular file under `root`, sorted by archive path in code-unit order (not the
 * locale's), as the CDK CLI's glob does: dot files included, directories only through
 * the files they hold (an empty directory leaves no entry), symlinks followed. A link
 * that dangles, a symlinked directory that loops back on itself and an entry that is
 * neither file nor directory (socket, FIFO, device) are refused rather than skipped, so
 * the archive never silently differs from the directory.
 */
export async function listFiles(root: string): Promise<ListedFile[]> {
  const files: ListedFile[] = [];
  await walk(root, '', [await realpath(root)], files);
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function walk(dir: string, prefix: string, ancestors: string[], out: ListedFile[]): Promise<void> {
  for (const name of await readdir(dir)) {
    const absolutePath = join(dir, name);
    const archiveName = prefix + name;
    const stats = await stat(absolutePath).catch((cause: NodeJS.ErrnoException) => {
      if (cause.code !== 'ENOENT' && cause.code !== 'ELOOP') throw cause;
      throw new CdkdError(
        'ASSET_SYMLINK_BROKEN',
        `${absolutePath} is a symlink whose target does not exist.`,
        {
          hint: 'Fix or remove the link in the asset directory, then re-run cdk synth.',
          cause,
        },
      );
    });
    if (stats.isFile()) {
      out.push({ name: archiveName, absolutePath, mode: stats.mode });
    } else if (stats.isDirectory()) {
      const real = await realpath(absolutePath);
      if (ancestors.includes(real)) {
        throw new CdkdError(
          'ASSET_SYMLINK_LOOP',
          `${absolutePath} links back to ${real}, which contains it: the asset directory would be infinite.`,
          { hint: 'Remove the symlink loop from the asset directory, then re-run cdk synth.' },
        );
      }
      await walk(absolutePath, `${archiveName}/`, [...ancestors, real], out);
    } else {
      throw new CdkdError(
        'ASSET_UNSUPPORTED_ENTRY',
        `${absolutePath} is neither a file nor a directory (a socket, FIFO or device); it cannot be zipped.`,
        { hint: 'Remove it from the asset directory, then re-run cdk synth.' },
      );
    }
  }
}
