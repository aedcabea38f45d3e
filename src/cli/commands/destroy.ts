import type { Command } from 'commander';
import { addAppOptions, collect, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { addDeployTuning, type DeployTuning } from '../options/deploy-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { addProgressOption, progressView, type ProgressMode } from '../progress/progress-view.js';
import { interruptible } from '../interrupts/interrupts.js';
import { unlessInterrupted } from '../../interrupted.js';
import { sessionFor } from '../options/session-from-options.js';
import { writeDestroyed } from '../render/render-destroyed.js';

interface DestroyOptions extends AppOptions, DeployTuning {
  all?: boolean;
  removeProtection?: boolean;
  force?: boolean;
  orphan: string[];
  progress: ProgressMode;
}

export function registerDestroy(program: Command): void {
  const command = program
    .command('destroy')
    .description("delete the stacks' resources and their state")
    .argument('[stacks...]', 'stack names, display paths or wildcards; default: the only stack');
  addProgressOption(addDeployTuning(addAppOptions(command)))
    .option('--all', 'every stack of the app')
    .option(
      '-e, --exclusively',
      "only the named stacks (as the CDK CLI's -e): cdkd's destroy never adds the stacks that depend on them",
    )
    .option('-f, --force', "the CDK CLI's --force: destroy without asking (as --yes)")
    .option('--remove-protection', "turn a resource's deletion protection off before deleting it")
    .option(
      '--orphan <logicalId>',
      'leave this resource in AWS as it is and drop it from state and the journal, for one its handler cannot delete (repeatable)',
      collect,
      [],
    )
    .action(async (patterns: string[], options: DestroyOptions, cmd: Command) => {
      const { destroyApp } = await import('../../toolkit/destroy/destroy-app.js');
      const progress = await progressView(options.progress, 'destroy', process.stderr.isTTY === true);
      const session = sessionFor(cmd);
      const warn = (message: string) => progress.sink({ kind: 'warning', stack: 'cdkd', message });
      try {
        // From the start: a signal during synthesis or the credential lookup is an interrupt too.
        await interruptible('destroy', { session, warn }, async (signal) => {
          const assembly = await unlessInterrupted(
            synthesizeFor(cmd, options),
            signal,
            'during synthesis; nothing was changed',
          );
          const results = await destroyApp({
            session,
            assembly,
            patterns,
            all: options.all ?? false,
            concurrency: options.concurrency,
            stackConcurrency: options.stackConcurrency,
            io: cliIoHost({ progress, yes: (globalOptions(cmd).yes || options.force) ?? false }),
            command: 'destroy',
            signal,
            removeProtection: options.removeProtection ?? false,
            orphan: options.orphan,
          });
          progress.close();
          for (const result of results) writeDestroyed(result, progress.text);
          process.stderr.write(`Done: ${progress.summary()}\n`);
        });
        progress.ended();
      } catch (error) {
        progress.ended(error);
        throw error;
      } finally {
        progress.close();
      }
    });
}
