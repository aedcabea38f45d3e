import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** How long the files must stay quiet before a change counts: an editor's save is several writes. */
export const DEBOUNCE_MS = 150;

/** Which changed paths count, and which directories are not walked at all (paths relative, slash-separated). */
export interface WatchFilter {
  counts(path: string): boolean;
  skipsDirectory(path: string): boolean;
}

export interface FileWatcher {
  close(): void;
}

/**
 * Watches `root` for changes to the files `filter` counts, calling `onChange` with the changed paths once they have been quiet for
 * `debounceMs`. One `fs.watch` per directory, so an excluded directory (node_modules,
 * cdk.out) is never walked or watched: Node 20's `recursive` option walks all of them on
 * Linux. A directory created later is watched as it appears.
 */
export async function watchFiles(
  root: string,
  filter: WatchFilter,
  onChange: (paths: string[]) => void,
  debounceMs = DEBOUNCE_MS,
): Promise<FileWatcher> {
  const watchers = new Map<string, FSWatcher>();
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const toPath = (absolute: string) => relative(root, absolute).split(sep).join('/');
  const skipped = (dir: string) => dir !== root && filter.skipsDirectory(toPath(dir));

  const flush = () => {
    timer = undefined;
    if (closed || changed.size === 0) return;
    const paths = [...changed].sort();
    changed.clear();
    onChange(paths);
  };
  const addDirectory = async (dir: string): Promise<void> => {
    if (closed || watchers.has(dir) || skipped(dir)) return;
    const isDirectory = await stat(dir).then(
      (found) => found.isDirectory(),
      () => false,
    );
    if (!isDirectory || closed || watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (name === null) return;
        const absolute = join(dir, name.toString());
        const path = toPath(absolute);
        // A new directory is watched; its files count once written.
        void addDirectory(absolute).catch(() => undefined);
        if (!filter.counts(path)) return;
        changed.add(path);
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, debounceMs);
      });
    } catch {
      return; // Gone already.
    }
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(dir);
    });
    watchers.set(dir, watcher);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.filter((entry) => entry.isDirectory()).map((entry) => addDirectory(join(dir, entry.name))),
    );
  };
  await addDirectory(root);
  return {
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
