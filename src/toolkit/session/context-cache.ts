import { PROJECT_CONTEXT, readContextFile, writeContextFile } from '../../assembly/context.js';
import { readProjectConfig } from '../../assembly/project-config.js';
import { CdkdError } from '../../errors.js';

/** One cached value, numbered as `cdkd context` lists it (1-based, keys in order). */
export interface CachedContextEntry {
  number: number;
  key: string;
  value: unknown;
}

/** What cdk.context.json holds: the values earlier lookups cached. */
export function listCachedContext(cwd: string): CachedContextEntry[] {
  const cached = readContextFile(cwd);
  return Object.keys(cached)
    .sort()
    .map((key, index) => ({ number: index + 1, key, value: cached[key] }));
}

/**
 * Removes one cached value, named by key or by its number in the listing; the next
 * synthesis looks it up again. A key only cdk.json sets is not a cache, and is refused.
 */
export function resetCachedContext(cwd: string, keyOrNumber: string): string {
  const entries = listCachedContext(cwd);
  const entry = /^\d+$/.test(keyOrNumber)
    ? entries.find((candidate) => candidate.number === Number(keyOrNumber))
    : entries.find((candidate) => candidate.key === keyOrNumber);
  if (!entry) {
    const inProject = Object.hasOwn(readProjectConfig(cwd).context, keyOrNumber);
    throw new CdkdError(
      'CONTEXT_KEY_NOT_FOUND',
      inProject
        ? `Context key "${keyOrNumber}" is set in cdk.json, not cached in ${PROJECT_CONTEXT}.`
        : `No cached context value with key or number "${keyOrNumber}" in ${PROJECT_CONTEXT}.`,
      {
        hint: inProject
          ? 'Edit cdk.json to change it.'
          : 'Run `cdkd context` to list the cached keys and their numbers.',
      },
    );
  }
  const remaining = Object.fromEntries(
    entries.filter((candidate) => candidate !== entry).map((e) => [e.key, e.value]),
  );
  writeContextFile(cwd, remaining);
  return entry.key;
}

/** Removes every cached value; returns how many there were. */
export function clearCachedContext(cwd: string): number {
  const count = listCachedContext(cwd).length;
  if (count > 0) writeContextFile(cwd, {});
  return count;
}
