import { runCli, startCli, type CliResult } from '../helpers/cli.js';
import type { Kill } from './schedule.js';

export interface CommandRun extends CliResult {
  /** The signal sent, when the kill point was reached before the command ended on its own. */
  killedBy?: Kill['signal'];
}

/**
 * Runs the built CLI; with `kill`, stops it with the signal once it printed the marker that
 * many times, or once the delay passed, unless it ended first. Resolves when it has exited.
 */
export async function runCommand(
  args: string[],
  env: Record<string, string>,
  kill: Kill | undefined,
): Promise<CommandRun> {
  if (!kill) return runCli(args, { env });
  const marker = 'marker' in kill ? kill.marker : '\u0000';
  const run = startCli(args, marker, { env, times: 'marker' in kill ? kill.count : 1 });
  let stdout = '';
  run.child.stdout.on('data', (chunk) => (stdout += chunk));
  let killedBy: Kill['signal'] | undefined;
  const reached =
    'marker' in kill ? run.creating : new Promise((resolve) => setTimeout(resolve, kill.delayMs));
  const ended = run.done.then(() => 'ended' as const);
  if ((await Promise.race([reached.then(() => 'reached' as const), ended])) === 'reached') {
    if (run.child.exitCode === null && run.child.signalCode === null) {
      killedBy = kill.signal;
      run.child.kill(kill.signal);
    }
  }
  const code = await run.done;
  return { code, stdout, stderr: run.stderr(), ...(killedBy ? { killedBy } : {}) };
}
