import type { Command } from 'commander';
import { DEFAULT_CONCURRENCY, positiveInteger } from '../options/deploy-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { interruptible } from '../interrupts/interrupts.js';
import { createProgress } from '../progress/progress.js';
import { writeDestroyed } from '../render/render-destroyed.js';
import { collect } from '../options/app-options.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

export function registerStateDestroy(state: Command): void {
  state
    .command('destroy <stack>')
    .addOption(accountOption())
    .description(
      "delete a stack's resources from its state alone, without the app (for a stack whose source is gone)",
    )
    .option('--concurrency <n>', 'resources deleted at once', positiveInteger, DEFAULT_CONCURRENCY)
    .option(
      '--orphan <logicalId>',
      'leave this resource in AWS as it is and drop it from state and the journal (repeatable)',
      collect,
      [],
    )
    .action(
      async (stackName: string, options: { concurrency: number; orphan: string[] }, command: Command) => {
        const { destroyFromState } = await import('../../toolkit/state/state-destroy.js');
        const global = globalOptions(command);
        const progress = createProgress(process.stderr, process.stderr.isTTY === true);
        const session = await stateSessionFor(command);
        const warn = (message: string) => progress.sink({ kind: 'warning', stack: 'cdkd', message });
        try {
          await interruptible('state destroy', { session, warn }, async (signal) => {
            const result = await destroyFromState({
              session,
              stackName,
              concurrency: options.concurrency,
              io: cliIoHost({ progress, yes: global.yes ?? false }),
              command: 'state destroy',
              signal,
              orphan: options.orphan,
              ...(global.region ? { region: global.region } : {}),
            });
            progress.close();
            writeDestroyed(result);
            process.stderr.write(`Done: ${progress.summary()}\n`);
          });
        } finally {
          progress.close();
        }
      },
    );
}
