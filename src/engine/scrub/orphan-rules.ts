import type { JournalDocument, ResourceRecord } from '../../state/index.js';

/** A resource to orphan that another resource left in state still reads. */
export interface OrphanReader {
  logicalId: string;
  readers: string[];
}

/**
 * Which of `orphaned` another resource staying in state still references: through the
 * dependencies its record holds, or (`templateReaders`, from the app) the template's.
 * Orphaned together, two resources may reference each other.
 */
export function orphanReaders(
  resources: Readonly<Record<string, ResourceRecord>>,
  orphaned: readonly string[],
  templateReaders: ReadonlyMap<string, readonly string[]> = new Map(),
): OrphanReader[] {
  const leaving = new Set(orphaned);
  const staying = Object.keys(resources).filter((id) => !leaving.has(id));
  return orphaned.flatMap((logicalId) => {
    const readers = staying.filter(
      (id) =>
        resources[id]!.dependencies.includes(logicalId) ||
        (templateReaders.get(logicalId) ?? []).includes(id),
    );
    return readers.length > 0 ? [{ logicalId, readers: readers.sort() }] : [];
  });
}

/**
 * The logical ids among `orphaned` whose operations a rollback journal still holds: a later
 * rollback would act on a resource cdkd no longer tracks, so the orphan waits for the journal.
 */
export function journaledIds(journal: JournalDocument | undefined, orphaned: readonly string[]): string[] {
  if (!journal) return [];
  const named = new Set(journal.segments.flatMap((segment) => segment.operations.map((op) => op.logicalId)));
  return orphaned.filter((id) => named.has(id));
}
