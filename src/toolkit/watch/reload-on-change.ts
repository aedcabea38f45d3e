import type { CloudAssembly } from '../../assembly/index.js';
import { watchFiles } from './file-watcher.js';
import { CoalescingQueue } from './run-queue.js';
import { projectWatchSettings, watchFilter } from './watch-settings.js';

export interface ReloadInput {
  /** The project directory (cdk.json's), watched as `cdkd watch` watches it. */
  dir: string;
  /** `--output`: the assembly's directory, left unwatched. */
  output?: string;
  synthesize(): Promise<CloudAssembly>;
  /** Serves the new assembly; throws when it cannot, the old one serving on. */
  reload(assembly: CloudAssembly): Promise<void>;
  onInfo(message: string): void;
  /** A synthesis or reload failed: shown, and the old assembly serves on. */
  failed(error: unknown): void;
}

/**
 * `cdkd local start-*` on an app it synthesizes: after each quiet change to the project's
 * files (what `cdkd watch` counts: cdk.json's `watch` patterns, its defaults and debounce)
 * the app is synthesized again and the servers reloaded with it; changes during a synthesis
 * make one more. Closing waits for the synthesis under way.
 */
export async function reloadOnChange(input: ReloadInput): Promise<{ close(): Promise<void> }> {
  const queue = new CoalescingQueue(async () => {
    const started = Date.now();
    const assembly = await input.synthesize();
    await input.reload(assembly);
    input.onInfo(`Reloaded with the new synthesis (${((Date.now() - started) / 1000).toFixed(1)}s).`);
  }, input.failed);
  const settings = projectWatchSettings(input.dir, input.output);
  const watcher = await watchFiles(input.dir, watchFilter(settings), (paths) => {
    input.onInfo(`Changed: ${paths.join(', ')}; synthesizing again.`);
    queue.trigger();
  });
  return {
    close: async () => {
      watcher.close();
      await queue.stop();
    },
  };
}

export interface RebuildInput {
  /** The directories whose files are the images' source (an assembly's image asset directories). */
  dirs: readonly string[];
  rebuild(): Promise<void>;
  onInfo(message: string): void;
  failed(error: unknown): void;
}

/** `cdkd local start-service --app DIR`: after each quiet change to a file of an image asset's directory, the images are rebuilt and the tasks replaced. */
export async function rebuildOnChange(input: RebuildInput): Promise<{ close(): Promise<void> }> {
  const queue = new CoalescingQueue(() => input.rebuild(), input.failed);
  const everything = { counts: () => true, skipsDirectory: () => false };
  const watchers = await Promise.all(
    input.dirs.map((dir) =>
      watchFiles(dir, everything, (paths) => {
        input.onInfo(`Changed in ${dir}: ${paths.join(', ')}; rebuilding the images.`);
        queue.trigger();
      }),
    ),
  );
  return {
    close: async () => {
      for (const watcher of watchers) watcher.close();
      await queue.stop();
    },
  };
}
