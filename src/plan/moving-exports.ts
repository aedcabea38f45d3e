import { keepsPhysicalId } from './readers.js';
import type { DesiredResource, PlannedOperation, ResourceRead } from './types.js';

/** An export the stack declares, and the resources of the stack its value reads. */
export interface DeclaredExport {
  exportName: string;
  reads: readonly Pick<ResourceRead, 'target' | 'via'>[];
}

/** What the run knows of the stacks that import one of this stack's exports. */
export interface ImportersInRun {
  /** Stacks other than this one that import `exportName` (from their recorded state). */
  importersOf(exportName: string): string[];
  /** Whether `importer` is in this run and deploys after this stack. */
  deploysAfter(importer: string): boolean;
}

/** An export whose value moves because a resource it reads is recreated. */
export interface MovingExport {
  exportName: string;
  /** The recreated resources of this stack the value reads. */
  targets: string[];
  importers: string[];
  /** Importers not deployed after this stack in this run: the export may not move. */
  stranded: string[];
}

/**
 * Which imported exports a deploy moves: one whose value reads (Ref, Fn::GetAtt, Fn::Sub) a
 * resource the plan replaces or recreates, or a reader replaced if its target's id changes.
 * A Ref of a target that keeps its id (a fixed name) does not move; an attribute read does.
 * An export nobody else imports is left out: it may change freely.
 */
export function movingExports(
  declared: readonly DeclaredExport[],
  operations: readonly PlannedOperation[],
  desired: readonly DesiredResource[],
  run: ImportersInRun,
): MovingExport[] {
  const ops = new Map(operations.map((op) => [op.logicalId, op]));
  const desiredById = new Map(desired.map((d) => [d.logicalId, d]));
  const moves = (read: Pick<ResourceRead, 'target' | 'via'>): boolean => {
    const op = ops.get(read.target);
    if (!op || !(op.kind === 'replace' || op.replacedIfIdChanges)) return false;
    return !(read.via === 'ref' && keepsPhysicalId(op, desiredById.get(read.target)));
  };
  return declared.flatMap((entry) => {
    const targets = [...new Set(entry.reads.filter(moves).map((read) => read.target))].sort();
    const importers = run.importersOf(entry.exportName);
    if (targets.length === 0 || importers.length === 0) return [];
    const stranded = importers.filter((importer) => !run.deploysAfter(importer));
    return [{ exportName: entry.exportName, targets, importers, stranded }];
  });
}
