import type { Command } from 'commander';
import {
  clearCachedContext,
  listCachedContext,
  resetCachedContext,
} from '../../toolkit/session/context-cache.js';

interface ContextOptions {
  reset?: string;
  clear?: boolean;
  json?: boolean;
}

export function registerContext(program: Command): void {
  program
    .command('context')
    .description(
      'list the context values cached in cdk.context.json, or remove them so they are looked up again',
    )
    .option('-e, --reset <keyOrNumber>', 'remove one cached value, by key or by its number in the list')
    .option('--clear', 'remove every cached value')
    .option('-j, --json', 'print the cached values as JSON')
    .action((options: ContextOptions) => {
      const cwd = process.cwd();
      if (options.reset !== undefined) {
        const key = resetCachedContext(cwd, options.reset);
        process.stdout.write(
          `Context value ${key} reset. It will be looked up again on the next synthesis.\n`,
        );
        return;
      }
      if (options.clear) {
        const count = clearCachedContext(cwd);
        process.stdout.write(`Cleared ${count} cached context value${count === 1 ? '' : 's'}.\n`);
        return;
      }
      const entries = listCachedContext(cwd);
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify(Object.fromEntries(entries.map((e) => [e.key, e.value])), null, 2)}\n`,
        );
        return;
      }
      if (entries.length === 0) {
        process.stdout.write('No context values are cached in cdk.context.json.\n');
        return;
      }
      const width = String(entries.length).length;
      for (const entry of entries) {
        process.stdout.write(
          `${String(entry.number).padStart(width)}  ${entry.key}  ${JSON.stringify(entry.value)}\n`,
        );
      }
      process.stdout.write('Run `cdkd context --reset <key or number>` to look a value up again.\n');
    });
}
