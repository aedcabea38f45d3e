import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST_FILE = 'manifest.json';

/** True when `dir` is a directory holding a cloud assembly manifest. */
export function isAssemblyDirectory(dir: string): boolean {
  return existsSync(join(dir, MANIFEST_FILE)) && statSync(dir).isDirectory();
}
