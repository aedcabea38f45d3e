import { existsSync, readFileSync } from 'node:fs';
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

/** The nearest folder above `start` whose package.json names cdkd (an app's own package.json does not). */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (namesCdkd(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`cdkd's package.json was not found above ${start}`);
  }
}

function namesCdkd(file: string): boolean {
  if (!existsSync(file)) return false;
  return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'cdkd';
}
