import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/** True when `path` is `dir` or lies below it, compared lexically (both absolute). */
export function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when `path` lies strictly below `dir`. */
export function isInside(dir: string, path: string): boolean {
  return relative(dir, path) !== '' && isWithin(dir, path);
}

/** The real path, or undefined when it does not exist. */
export function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
