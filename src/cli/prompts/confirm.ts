import { createInterface } from 'node:readline/promises';
import type { DataLossConfirmation } from '../../messages/index.js';
import { CdkdError } from '../../errors.js';
import { needsDataLossConfirmation, renderDataLossPlan } from '../../plan/render-data-loss.js';

/** Where a question is asked: the process's stdin and stderr, unless a test supplies its own. */
export interface Terminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

const PROCESS_TERMINAL: Terminal = { input: process.stdin, output: process.stderr };

/** Asks on a TTY; without one, only --yes proceeds, so nothing destructive runs unattended by accident. */
export async function confirm(question: string, yes: boolean, terminal = PROCESS_TERMINAL): Promise<void> {
  if (yes) return;
  if (!terminal.input.isTTY) {
    throw new CdkdError('CONFIRMATION_REQUIRED', `${question} No terminal to ask on.`, {
      hint: 'Re-run with --yes to confirm.',
    });
  }
  const prompt = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
  // Ctrl+C, seen here rather than by Node's default (which only closes the prompt), exits as an interrupt.
  const interrupt = new AbortController();
  prompt.once('SIGINT', () => interrupt.abort());
  let answer: string;
  try {
    answer = await prompt.question(`${question} [y/N] `, { signal: interrupt.signal });
  } catch (error) {
    // Node rejects the question on Ctrl+C or Ctrl+D: a refusal, never an unexpected error.
    // Ctrl+C exits as an interrupt does (130); Ctrl+D, the end of input, as a refusal (1).
    throw new CdkdError('CANCELLED', 'Cancelled at the prompt; nothing was changed.', {
      cause: error,
      ...(interrupt.signal.aborted ? { exitCode: 130 } : {}),
    });
  } finally {
    prompt.close();
  }
  if (!/^y(es)?$/i.test(answer.trim())) {
    throw new CdkdError('CANCELLED', 'Cancelled; nothing was changed.');
  }
}

/**
 * The data-loss confirmation a deploy asks before a stateful recreate (spec 002, "The recreate
 * prompt's three display states"): prints the stack's recreated resources, then asks as
 * `confirm` does. Stacks deploying in parallel ask one at a time.
 */
export function dataLossConfirmer(options: {
  yes: boolean;
  write(text: string): void;
}): (confirmation: DataLossConfirmation) => Promise<void> {
  let queue: Promise<unknown> = Promise.resolve();
  return (confirmation) => {
    const asked = queue.then(async () => {
      options.write(renderDataLossPlan(confirmation.stackName, confirmation.rows));
      const question = needsDataLossConfirmation(confirmation.rows)
        ? `Deploy ${confirmation.stackName}, destroying the data marked DATA LOSS above?`
        : `Deploy ${confirmation.stackName}, destroying and re-creating the resources above?`;
      await confirm(question, options.yes);
    });
    queue = asked.catch(() => undefined);
    return asked;
  };
}

/**
 * One question of several: a "no" answers false instead of cancelling the command, while
 * Ctrl+C or Ctrl+D at the prompt still cancels the whole command.
 */
export async function confirmed(
  question: string,
  yes: boolean,
  terminal = PROCESS_TERMINAL,
): Promise<boolean> {
  try {
    await confirm(question, yes, terminal);
    return true;
  } catch (error) {
    if (error instanceof CdkdError && error.code === 'CANCELLED' && error.cause === undefined) return false;
    throw error;
  }
}
