import type { JournalOperation } from '../state/index.js';
import { nameProperty, readPath } from '../resource-types/index.js';
import type { PlannedStep } from './plan-rollback.js';

/**
 * Which earlier steps of the plan each step waits for, so that independent steps
 * replay at once while every pair whose order could matter keeps the plan's order
 * (made resources first, then newest first). Two steps are ordered when they
 * share a logical id, when either's records name the other as a dependency, when
 * either deletes what a failed create made (those go before any revert), or when
 * they are of one type whose names could collide (an explicit name on either
 * side, or a type whose name property cdkd does not know). A step that only
 * changes the journal (leave, discard) neither waits nor is waited for.
 */
export function replayDependencies(planned: readonly PlannedStep[]): number[][] {
  return planned.map((entry, index) =>
    planned.slice(0, index).flatMap((earlier, before) => (ordered(earlier, entry) ? [before] : [])),
  );
}

function ordered(a: PlannedStep, b: PlannedStep): boolean {
  if (journalOnly(a) || journalOnly(b)) return false;
  if (a.op.logicalId === b.op.logicalId) return true;
  if ((a.step.kind === 'delete-made') !== (b.step.kind === 'delete-made')) return true;
  if (dependsOn(a.op, b.op.logicalId) || dependsOn(b.op, a.op.logicalId)) return true;
  const spacesOfB = new Set(typesOf(b.op).map(nameSpace));
  if (!typesOf(a.op).some((type) => spacesOfB.has(nameSpace(type)))) return false;
  return mayHoldName(a.op) || mayHoldName(b.op);
}

function journalOnly(entry: PlannedStep): boolean {
  return entry.step.kind === 'leave' || entry.step.kind === 'discard';
}

function dependsOn(op: JournalOperation, logicalId: string): boolean {
  return [op.before, op.after].some((record) => record?.dependencies.includes(logicalId) ?? false);
}

function typesOf(op: JournalOperation): string[] {
  return [op.type, op.previousType, op.before?.type].filter((type): type is string => type !== undefined);
}

/** Types sharing one namespace of names (RDS, DocumentDB and Neptune clusters) can collide. */
function nameSpace(type: string): string {
  return nameProperty(type)?.namespace ?? type;
}

/** An explicit name anywhere in the op's records, or a type whose name property cdkd does not know. */
function mayHoldName(op: JournalOperation): boolean {
  return typesOf(op).some((type) => {
    const rule = nameProperty(type);
    if (!rule) return true;
    return [op.before?.properties, op.after?.properties, op.attempted, op.made?.properties].some(
      (properties) => readPath(properties, rule.path) !== undefined,
    );
  });
}
