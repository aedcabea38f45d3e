import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The cdkd package's folder (package.json, generated/, dist/), found by walking up from this
 * module: the same answer from src/ (tests), dist/ and the bundled CLI in dist/cli/bundle/,
 * whose files sit at other depths than the modules they were built from.
 */
export const PACKAGE_ROOT: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Whether this code runs from the TypeScript sources (tests) rather than the build. */
export const FROM_SOURCES: boolean = import.meta.url.endsWith('.ts');

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'generated'))) return dir;
    if (dirname(dir) === dir) throw new Error(`cdkd's package folder was not found above ${start}`);
  }
}
