import { rename, writeFile } from 'node:fs/promises';
import { CdkdError, messageOf } from '../../errors.js';

/** Writes `content` beside `path` and renames it into place: the file is whole or untouched. */
export async function writeHtmlFile(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (cause) {
    throw new CdkdError('HTML_FILE_FAILED', `--html ${path} could not be written: ${messageOf(cause)}`, {
      hint: 'Choose a file in a directory you can write to.',
      cause,
    });
  }
}
