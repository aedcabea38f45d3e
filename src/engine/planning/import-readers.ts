import {
  statefulOutcome,
  type MovingExport,
  type Plan,
  type RecreateRow,
  type StatefulOutcome,
} from '../../plan/index.js';
import type { CrossStack, ImportReader } from '../stack-request.js';

/** A resource of another stack that follows a recreated target through its import. */
export interface FollowingImportReader extends ImportReader {
  exportName: string;
  targets: string[];
}

/**
 * Lists on each recreated target the resources of other stacks that read it through an export
 * (`Importer/LogicalId`), so the exporter's plan shows the whole effect; returns them for the
 * prompt. Each follows when its own stack deploys, later in the run.
 */
export function noteImportReaders(
  plan: Plan,
  moving: readonly MovingExport[],
  run: CrossStack,
): FollowingImportReader[] {
  const readers = moving.flatMap((entry) =>
    run.readersOf(entry.exportName, entry.importers).map((reader) => ({
      ...reader,
      exportName: entry.exportName,
      targets: entry.targets,
    })),
  );
  plan.operations = plan.operations.map((op) => {
    const lines = moving
      .filter((entry) => entry.targets.includes(op.logicalId))
      .map((entry) => {
        const named = readers
          .filter((reader) => reader.exportName === entry.exportName)
          .map(
            (r) => `${r.stack}/${r.logicalId} (${r.createOnly ? 'replaced if the id changes' : 'updated'})`,
          );
        const who = named.length > 0 ? named.join(', ') : entry.importers.join(', ');
        return `exported as ${entry.exportName}, read in other stacks by ${who}: they follow when their stacks deploy, after this one, and any old copy is kept until they have`;
      });
    if (lines.length === 0) return op;
    const importedBy = moving
      .filter((entry) => entry.targets.includes(op.logicalId))
      .flatMap((entry) => entry.importers);
    return { ...op, notes: [...op.notes, ...lines], importedBy: [...new Set(importedBy)].sort() };
  });
  return readers;
}

/** The prompt's "Replaced if the id changes" rows for the create-only readers in other stacks. */
export function importReaderRows(
  readers: readonly FollowingImportReader[],
  forceStatefulRecreation: boolean,
): RecreateRow[] {
  return readers
    .filter((reader) => reader.createOnly)
    .map((reader) => {
      const outcome: StatefulOutcome = statefulOutcome(
        {
          type: reader.type,
          ...(reader.updateReplacePolicy !== undefined && {
            updateReplacePolicy: reader.updateReplacePolicy,
          }),
        },
        forceStatefulRecreation,
      );
      return {
        logicalId: `${reader.stack}/${reader.logicalId}`,
        type: reader.type,
        outcome,
        readerOf: reader.targets,
        reason: `replaced if the id of ${reader.targets.join(', ')} changes (reads export ${reader.exportName})`,
      };
    });
}
