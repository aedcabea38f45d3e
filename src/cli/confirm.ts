import { createInterface } from 'node:readline/promises';
import { CdkdError } from '../errors.js';

/** Asks on a TTY; without one, only --yes proceeds, so nothing destructive runs unattended by accident. */
export async function confirm(question: string, yes: boolean): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY) {
    throw new CdkdError('CONFIRMATION_REQUIRED', `${question} No terminal to ask on.`, {
      hint: 'Re-run with --yes to confirm.',
    });
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) {
      throw new CdkdError('CANCELLED', 'Cancelled; nothing was changed.');
    }
  } finally {
    prompt.close();
  }
}

/** One question of several: a "no" answers false instead of cancelling the command. */
export async function confirmed(question: string, yes: boolean): Promise<boolean> {
  try {
    await confirm(question, yes);
    return true;
  } catch (error) {
    if (error instanceof CdkdError && error.code === 'CANCELLED') return false;
    throw error;
  }
}
