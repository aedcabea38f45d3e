import { Option, type Command } from 'commander';
import type { ProgressMode, ProgressView } from './progress-mode.js';
import { createProgress } from './progress.js';
import { handleInterrupts, type Interrupts, type LockingCommand } from '../interrupts/interrupts.js';

export type { ProgressMode } from './progress-mode.js';

/** `--progress <mode>` on deploy, destroy and rollback. */
export function addProgressOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--progress <mode>',
      'human: the live view on stderr; events: one JSON object per event on stdout (docs/progress-events.md); errors: only failures, warnings and the end',
    )
      .choices(['human', 'events', 'errors'])
      .default('human'),
  );
}

/** The human view (`live` on a TTY), or the JSON stream, loaded only when asked for. */
export async function progressView(
  mode: ProgressMode,
  command: string,
  live: boolean,
  verbose = false,
): Promise<ProgressView> {
  if (mode !== 'human')
    return (await import('./progress-stream.js')).eventStream(mode, command, (line) =>
      process.stdout.write(line),
    );
  return {
    ...createProgress(process.stderr, live, verbose),
    ended: () => undefined,
    text: (chunk) => void process.stdout.write(chunk),
  };
}

/**
 * The view of a command that holds locks, with its signal handling from the start: a signal's
 * notice shows as a warning in the view. Live only on a terminal and without --verbose.
 */
export async function progressWithInterrupts(
  mode: ProgressMode,
  command: LockingCommand,
  verbose: boolean,
): Promise<{ progress: ProgressView; interrupts: Interrupts }> {
  const progress = await progressView(mode, command, process.stderr.isTTY === true && !verbose, verbose);
  const interrupts = handleInterrupts(command, (message) =>
    progress.sink({ kind: 'warning', stack: 'cdkd', message }),
  );
  return { progress, interrupts };
}
