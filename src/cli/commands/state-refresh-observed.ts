import type { Command } from 'commander';
import { DEFAULT_CONCURRENCY, positiveInteger } from '../options/deploy-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { interruptible } from '../interrupts/interrupts.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

export function registerStateRefreshObserved(state: Command): void {
  state
    .command('refresh-observed <stack>')
    .addOption(accountOption())
    .description(
      're-read every resource of a stack and store what AWS holds as its observed properties (AWS is not changed)',
    )
    .option('--concurrency <n>', 'resources read at once', positiveInteger, DEFAULT_CONCURRENCY)
    .action(async (stackName: string, options: { concurrency: number }, command: Command) => {
      const { refreshObservedState } = await import('../../toolkit/state/refresh-observed.js');
      const region = globalOptions(command).region;
      const session = await stateSessionFor(command);
      const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
      const result = await interruptible('state refresh-observed', { session, warn }, (signal) =>
        refreshObservedState({
          session,
          stackName,
          concurrency: options.concurrency,
          io: cliIoHost({ yes: globalOptions(command).yes ?? false, warn }),
          command: 'state refresh-observed',
          signal,
          ...(region ? { region } : {}),
        }),
      );
      process.stdout.write(`${stackName}: ${result.refreshed.length} resources re-read.\n`);
      for (const logicalId of result.missing) {
        process.stderr.write(
          `Warning: ${logicalId} no longer exists in AWS; its record is kept as it was (cdkd orphan, or a deploy, settles it).\n`,
        );
      }
      for (const failure of result.failed) {
        process.stderr.write(`Error: ${failure.logicalId} could not be read: ${failure.message}\n`);
      }
      if (result.failed.length > 0) process.exitCode = 1;
      else if (result.missing.length > 0) process.exitCode = 2;
    });
}
