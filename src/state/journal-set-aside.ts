import { isCdkdError } from '../errors.js';
import { stackStateKeys } from './keys.js';
import type { S3Objects } from './s3-objects.js';
import type { StackRef } from './state-store.js';

/**
 * The codes a journal read raises when its bytes cannot be used: torn, hand-edited or
 * another stack's. Not a newer cdkd's document (upgrade instead), nor a read that failed.
 */
const UNREADABLE_CODES = new Set(['STATE_DOCUMENT_INVALID', 'STATE_DOCUMENT_FOREIGN']);

/** Whether a journal read failed because the stored bytes cannot be read as this stack's journal. */
export function isUnreadableJournal(error: unknown): boolean {
  return isCdkdError(error) && UNREADABLE_CODES.has(error.code);
}

/**
 * Moves an unreadable rollback journal and its tails out of the way, beside where they were
 * (`rollback-journal.unreadable-<time>.json`, its tails under `rollback-journal.unreadable-<time>/`),
 * so a command can go on without it and nothing it held is lost. The copies are written before
 * the originals are deleted: a kill in between leaves both. Returns where the document now is.
 */
export async function setJournalAside(objects: S3Objects, prefix: string, stack: StackRef): Promise<string> {
  const keys = stackStateKeys(prefix, stack.stackName, stack.region);
  const stamp = new Date().toISOString().replaceAll(':', '-').replace('.', '-');
  const asideBase = keys.journal.replace(/\.json$/, `.unreadable-${stamp}`);
  const document = `${asideBase}.json`;
  const tails = await objects.listKeys(keys.journalTailsPrefix);
  const stored = await objects.get(keys.journal);
  if (stored) await objects.put(document, stored.text);
  for (const tail of tails) {
    const text = await objects.get(tail);
    if (text) await objects.put(`${asideBase}/${tail.slice(keys.journalTailsPrefix.length)}`, text.text);
  }
  await objects.delete(keys.journal);
  await objects.deleteMany(tails);
  return objects.location(stored ? document : `${asideBase}/`);
}
