import type { Command } from 'commander';
import type { StackRollbackResult } from '../../engine/index.js';
import { describeNamePrefix, namePrefixSetting } from '../../assembly/name-prefix-setting.js';
import { CdkdError } from '../../errors.js';
import { collect } from '../options/app-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { interruptible } from '../interrupts/interrupts.js';
import { addProgressOption, progressWithInterrupts, type ProgressMode } from '../progress/progress-view.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

interface RollbackOptions {
  revertFailed?: boolean;
  orphan: string[];
  force?: boolean;
  dropFailed?: boolean;
  all?: boolean;
  progress: ProgressMode;
}

export function registerRollback(program: Command): void {
  addProgressOption(
    program
      .command('rollback')
      .addOption(accountOption())
      .description("revert a failed deploy from the stack's rollback journal (no synthesis)")
      .argument(
        '[stack]',
        'the stack, or a nested stack as Stack~Child; default: the only stack with a journal',
      ),
  )
    .option('--revert-failed', 'also revert the operations that failed (force-revert a failed update)')
    .option('--orphan <logicalId>', 'leave this resource as it is (repeatable)', collect, [])
    .option('--force', 'orphan whatever fails to roll back instead of stopping')
    .option('--all', 'roll back every stack in the region that has a rollback journal')
    .option(
      '--drop-failed',
      'discard the failed operations a clean automatic rollback kept, leaving those resources as they are',
    )
    .action(async (stackName: string | undefined, options: RollbackOptions, cmd: Command) => {
      const { rollbackAll, rollbackApp } = await import('../../toolkit/recovery/rollback-app.js');
      const global = globalOptions(cmd);
      if (options.all && (stackName !== undefined || options.dropFailed)) {
        throw new CdkdError(
          'ROLLBACK_FLAGS_CONFLICT',
          `--all rolls back every stack with a journal; ${stackName !== undefined ? `a stack name (${stackName}) picks one` : '--drop-failed acts on one stack'}.`,
          { hint: 'Run cdkd rollback --all alone, or name one stack without --all.' },
        );
      }
      if (options.dropFailed) return dropFailed(stackName, options, cmd);
      // A rollback absorbs further signals: stopping it takes SIGKILL (spec 003, "Signals").
      const { progress, interrupts } = await progressWithInterrupts(
        options.progress,
        'rollback',
        global.verbose ?? false,
      );
      const exitCodes: number[] = [];
      const report = (result: StackRollbackResult) => {
        const code = renderRollback(result, progress.text, interrupts.signal.aborted);
        exitCodes.push(code);
        // A failure (1) outranks operations needing attention (2).
        if (code !== 0 && process.exitCode !== 1) process.exitCode = code;
      };
      try {
        const input = {
          session: await stateSessionFor(cmd),
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
          command: 'rollback' as const,
        };
        if (options.all) {
          await rollbackAll({ ...input, onStack: report });
          progress.close();
          if (exitCodes.length === 0)
            progress.text('No stack has a rollback journal; nothing to roll back.\n');
        } else {
          report(await rollbackApp({ ...input, ...(stackName ? { stackName } : {}) }));
          progress.close();
        }
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
  const session = await stateSessionFor(cmd);
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

/** One stack's rollback outcome as a line; returns the exit code it calls for. */
function renderRollback(
  result: StackRollbackResult,
  text: (line: string) => void,
  interrupted: boolean,
): number {
  if (!result.found) {
    text(`${result.stackName || 'No stack'}: no rollback journal, nothing to roll back.\n`);
    return 0;
  }
  if (!result.confirmed) {
    text(`${result.stackName ? `${result.stackName}: cancelled` : 'Cancelled'}; nothing was changed.\n`);
    return 0;
  }
  const verdict =
    result.exitCode === 0
      ? 'rolled back'
      : result.exitCode === 2
        ? `rolled back, but some operations need attention (see the warnings; cdkd events lists them)${result.kept ? `; the journal keeps ${result.kept === 1 ? 'one operation' : `${result.kept} operations`} for cdkd rollback to act on once checked` : ''}`
        : interrupted
          ? 'rollback interrupted; the journal keeps what is left: run cdkd rollback again'
          : 'rollback failed; the journal is kept for a re-run';
  text(`${result.stackName}: ${verdict}.\n`);
  return result.exitCode;
}
