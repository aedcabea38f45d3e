import { readFile } from 'node:fs/promises';
import { Zip, ZipDeflate } from 'fflate';
import { listFiles } from './list-files.js';

const UNIX = 3;
const REGULAR_FILE = 0o100000;
const OWNER_EXECUTE = 0o100;
/** fflate's default; pinned because the bytes (and so Lambda's CodeSha256) depend on it. */
const DEFLATE_LEVEL = 6;

/**
 * Zips `directory` in memory so the same content gives the same bytes on any machine,
 * run, file system order, mtime or umask: entries sorted by `/`-separated path (see
 * listFiles), a fixed timestamp, and the mode reduced to 0644 or 0755 by the owner's
 * execute bit (the CDK CLI copies stat.mode, which varies with umask; the execute bit is
 * what a Lambda `bootstrap` needs). fflate deflates in pure JS, so the output does not
 * depend on the zlib build Node ships.
 */
export async function zipDirectory(directory: string): Promise<Buffer> {
  const files = await listFiles(directory);
  // DOS timestamps carry no time zone and fflate fills them from the local-time getters,
  // so a Date built from local components (in the TZ of this call) encodes as 1980-01-01
  // 00:00, the earliest DOS time and the CDK CLI's choice; a UTC instant would shift with TZ.
  const mtime = new Date(1980, 0, 1, 0, 0, 0);
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  for (const file of files) {
    const entry = new ZipDeflate(file.name, { level: DEFLATE_LEVEL });
    entry.mtime = mtime;
    entry.os = UNIX;
    entry.attrs = (REGULAR_FILE | (file.mode & OWNER_EXECUTE ? 0o755 : 0o644)) << 16;
    zip.add(entry);
    // Whole-file pushes, as the CDK CLI reads them: the deflate stream then never
    // depends on how the file system happened to split the reads.
    entry.push(await readFile(file.absolutePath), true);
  }
  zip.end();
  // fflate's non-async stream classes call back synchronously, so every chunk (or the error) is in.
  if (failure) throw failure;
  return Buffer.concat(chunks);
}
