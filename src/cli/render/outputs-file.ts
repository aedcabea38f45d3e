import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CdkdError, messageOf } from '../../errors.js';

/**
 * --outputs-file before anything is deployed: its directory is created (as the CDK CLI
 * does), and a path that cannot become a file is refused while nothing is touched yet.
 */
export async function prepareOutputsFile(path: string): Promise<void> {
  const target = resolve(path);
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new CdkdError('OUTPUTS_FILE_INVALID', `--outputs-file ${path} is a directory.`, {
      hint: 'Name a file to write, such as --outputs-file outputs.json.',
    });
  }
  try {
    await mkdir(dirname(target), { recursive: true });
  } catch (cause) {
    throw new CdkdError(
      'OUTPUTS_FILE_INVALID',
      `The directory of --outputs-file ${path} cannot be created: ${messageOf(cause)}`,
      { hint: 'Choose a path you can write to; nothing was deployed.', cause },
    );
  }
}

/** Writes the outputs after the deploy; a failure says the deploy itself succeeded. */
export async function writeOutputsFile(path: string, content: string): Promise<void> {
  try {
    await writeFile(path, content);
  } catch (cause) {
    throw new CdkdError(
      'OUTPUTS_FILE_FAILED',
      `The deploy succeeded, but its outputs could not be written to ${path}: ${messageOf(cause)}`,
      {
        hint: 'cdkd state show <stack> lists them; fix the path and re-run cdkd deploy (a no-op) to write the file.',
        cause,
      },
    );
  }
}
