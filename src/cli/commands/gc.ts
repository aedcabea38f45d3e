import { InvalidArgumentError, type Command } from 'commander';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

interface GcOptions {
  rollbackBufferDays: number;
  dryRun?: boolean;
}

export function registerGc(program: Command): void {
  program
    .command('gc')
    .addOption(accountOption())
    .description("delete assets in cdkd's asset bucket that no state, kept generation or journal names")
    .option(
      '--rollback-buffer-days <days>',
      'keep every asset stored within this many days, named or not',
      wholeDays,
      30,
    )
    .option('--dry-run', 'list what would be deleted; delete nothing')
    .action(async (options: GcOptions, cmd: Command) => {
      const { collectGarbage } = await import('../../toolkit/gc/index.js');
      const global = globalOptions(cmd);
      const result = await collectGarbage({
        session: await stateSessionFor(cmd),
        ...(global.region && { region: global.region }),
        rollbackBufferDays: options.rollbackBufferDays,
        dryRun: options.dryRun ?? false,
        io: cliIoHost({ yes: global.yes ?? false }),
        command: 'gc',
      });
      for (const storage of result.storages) {
        if (!storage.found) {
          process.stdout.write(`${storage.describe}: not there; nothing to collect.\n`);
          continue;
        }
        const verb = options.dryRun ? 'would delete' : 'deleted';
        for (const asset of storage.unreferenced)
          process.stdout.write(`${verb} ${asset.location} (stored ${asset.storedAt.toISOString()})\n`);
        process.stdout.write(
          `${storage.describe}: ${storage.unreferenced.length} of ${storage.stored} ${verb === 'deleted' ? 'deleted' : 'unreferenced and past the buffer'}; the rest are named by state or newer than ${options.rollbackBufferDays} days.\n`,
        );
      }
    });
}

function wholeDays(value: string): number {
  const days = Number(value);
  if (!Number.isInteger(days) || days < 0)
    throw new InvalidArgumentError('expected a whole number of days, 0 or more.');
  return days;
}
