import { messageOf } from '../../errors.js';
import { isUnreadableJournal, setJournalAside } from '../../state/journal-set-aside.js';
import type { StackRef } from '../../state/index.js';
import type { EngineContext } from '../engine-context.js';
import { RunJournal, type RunInfo } from './run-journal.js';

export interface OpenedJournal {
  journal: RunJournal;
  /** Set when the stored journal could not be read and was set aside: what a person must look at. */
  setAside?: string;
}

/**
 * Spec 000/003: "A journal the deploy cannot read is warned about and removed, and nothing it
 * records is deleted." Its bytes are kept beside it rather than deleted, and the warning says
 * where, so what it recorded can still be recovered by hand. A read that failed for any other
 * reason (the bucket unreachable, a newer cdkd's document) still stops the command.
 */
export async function openJournalOrSetAside(
  engine: EngineContext,
  ref: StackRef,
  run?: RunInfo,
): Promise<OpenedJournal> {
  try {
    return { journal: await RunJournal.open(engine.backend.journals, ref, run) };
  } catch (error) {
    if (!isUnreadableJournal(error)) throw error;
    const where = await setJournalAside(engine.backend.objects, engine.backend.journals.prefix, ref);
    return {
      journal: await RunJournal.open(engine.backend.journals, ref, run),
      setAside: unreadableWarning(ref, where, error),
    };
  }
}

export function unreadableWarning(ref: StackRef, where: string, error: unknown): string {
  return `The rollback journal of ${ref.stackName} (${ref.region}) cannot be read; nothing it records was acted on or deleted, and it was set aside as ${where}: ${messageOf(error)} Check by hand what it names (a resource it recorded may be in AWS untracked), then delete it.`;
}
