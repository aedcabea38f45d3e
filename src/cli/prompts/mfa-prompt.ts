import { createInterface } from 'node:readline/promises';
import { CdkdError } from '../../errors.js';
import type { Terminal } from './confirm.js';

const PROCESS_TERMINAL: Terminal = { input: process.stdin, output: process.stderr };

/** Reads an MFA code on a terminal; without one, refuses with what to do instead. */
export async function promptMfaCode(
  question: string,
  data: { serial: string; profile?: string },
  terminal = PROCESS_TERMINAL,
): Promise<string> {
  if (!terminal.input.isTTY) {
    const named = data.profile ? `profile ${data.profile}` : 'the profile in use';
    throw new CdkdError(
      'MFA_CODE_REQUIRED',
      `The role of ${named} needs a code from MFA device ${data.serial}, and there is no terminal to ask for it on.`,
      {
        hint: 'Run the command on a terminal to enter the code, or use credentials that need none (e.g. from aws sts get-session-token).',
      },
    );
  }
  const prompt = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
  try {
    return (await prompt.question(`${question}: `)).trim();
  } catch (error) {
    throw new CdkdError('CANCELLED', 'Cancelled at the MFA prompt; nothing was changed.', { cause: error });
  } finally {
    prompt.close();
    // Read once, stdin would keep the process alive after the command is done.
    terminal.input.pause();
  }
}
