import type { Command } from 'commander';
import { describeNamePrefix, namePrefixSetting } from '../../assembly/name-prefix-setting.js';
import { CdkdError } from '../../errors.js';
import { collect } from '../app-options.js';
import { globalOptions } from '../global-options.js';
import { cliIoHost } from '../io-host.js';
import { handleInterrupts, interruptible } from '../interrupts.js';
import { addProgressOption, progressView, type ProgressMode } from '../progress-view.js';
import { sessionFor } from '../session-from-options.js';

interface RollbackOptions {
  revertFailed?: boolean;
  orphan: string[];
  force?: boolean;
  dropFailed?: boolean;
  progress: ProgressMode;
}

export function registerRollback(program: Command): void {
  addProgressOption(
    program
      .command('rollback')
      .description("revert a failed deploy from the stack's rollback journal (no synthesis)")
      .argument(
        '[stack]',
        'the stack, or a nested stack as Stack~Child; default: the only stack with a journal',
      ),
  )
    .option('--revert-failed', 'also revert the operations that failed (force-revert a failed update)')
    .option('--orphan <logicalId>', 'leave this resource as it is (repeatable)', collect, [])
    .option('--force', 'orphan whatever fails to roll back instead of stopping')
    .option(
      '--drop-failed',
      'discard the failed operations a clean automatic rollback kept, leaving those resources as they are',
    )
    .action(async (stackName: string | undefined, options: RollbackOptions, cmd: Command) => {
      const { rollbackApp } = await import('../../toolkit/recovery/rollback-app.js');
      const global = globalOptions(cmd);
      if (options.dropFailed) return dropFailed(stackName, options, cmd);
      const progress = await progressView(
        options.progress,
        'rollback',
        process.stderr.isTTY === true && !global.verbose,
      );
      // A rollback absorbs further signals: stopping it takes SIGKILL (spec 003, "Signals").
      const interrupts = handleInterrupts('rollback', (message) =>
        progress.sink({ kind: 'warning', stack: 'cdkd', message }),
      );
      try {
        const result = await rollbackApp({
          session: sessionFor(cmd),
          ...(stackName ? { stackName } : {}),
          ...(global.region ? { region: global.region } : {}),
          revertFailed: options.revertFailed ?? false,
          orphan: options.orphan,
          force: options.force ?? false,
          signal: interrupts.signal,
          namePrefixFallback: () => {
            const setting = namePrefixSetting({ env: process.env, cwd: process.cwd() });
            return { value: setting.value, description: describeNamePrefix(setting) };
          },
          io: cliIoHost({
            progress,
            yes: global.yes ?? false,
            questionOutput: progress.text,
          }),
          command: 'rollback',
        });
        progress.close();
        if (!result.found) {
          progress.text(`${result.stackName || 'No stack'}: no rollback journal, nothing to roll back.\n`);
          return;
        }
        if (!result.confirmed) {
          progress.text('Cancelled; nothing was changed.\n');
          return;
        }
        const verdict =
          result.exitCode === 0
            ? 'rolled back'
            : result.exitCode === 2
              ? `rolled back, but some operations need attention (see the warnings; cdkd events lists them)${result.kept ? `; the journal keeps ${result.kept === 1 ? 'one operation' : `${result.kept} operations`} for cdkd rollback to act on once checked` : ''}`
              : interrupts.signal.aborted
                ? 'rollback interrupted; the journal keeps what is left: run cdkd rollback again'
                : 'rollback failed; the journal is kept for a re-run';
        progress.text(`${result.stackName}: ${verdict}.\n`);
        if (result.exitCode !== 0) process.exitCode = result.exitCode;
        progress.ended();
      } catch (error) {
        progress.ended(error);
        throw error;
      } finally {
        interrupts.dispose();
        progress.close();
      }
    });
}

async function dropFailed(
  stackName: string | undefined,
  options: RollbackOptions,
  cmd: Command,
): Promise<void> {
  if (options.revertFailed || options.force || options.orphan.length > 0) {
    throw new CdkdError(
      'ROLLBACK_FLAGS_CONFLICT',
      '--drop-failed discards the failed operations; --revert-failed, --orphan and --force act on them.',
      { hint: 'Run cdkd rollback --drop-failed on its own.' },
    );
  }
  const { dropFailedApp } = await import('../../toolkit/recovery/rollback-app.js');
  const global = globalOptions(cmd);
  const session = sessionFor(cmd);
  const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
  const result = await interruptible('rollback --drop-failed', { session, warn }, (signal) =>
    dropFailedApp({
      session,
      ...(stackName ? { stackName } : {}),
      ...(global.region ? { region: global.region } : {}),
      io: cliIoHost({
        yes: global.yes ?? false,
        warn,
        questionOutput: (text) => process.stdout.write(text),
      }),
      command: 'rollback',
      signal,
    }),
  );
  if (!result.found) {
    process.stdout.write(`${result.stackName || 'No stack'}: no rollback journal, nothing to drop.\n`);
    return;
  }
  process.stdout.write(
    result.confirmed
      ? `${result.stackName}: failed operations dropped; the rollback journal is gone.\n`
      : 'Cancelled; nothing was changed.\n',
  );
}
