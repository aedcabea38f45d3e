import { createInterface } from 'node:readline/promises';
import type { DataLossConfirmation } from '../engine/stack-request.js';
import { CdkdError } from '../errors.js';
import { needsDataLossConfirmation, renderDataLossPlan } from '../plan/render-data-loss.js';

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
