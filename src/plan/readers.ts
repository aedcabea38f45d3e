import { replacementOf, schemaFor } from './resource-schemas.js';
import type { DesiredResource, PlannedOperation, ResourceRead } from './types.js';

/**
 * A recreated target keeps its physical id when that id is its name, set in the template
 * and equal to the recorded one (spec 002: a function with an explicit FunctionName).
 * Anything else (AWS-assigned id, a name that differs, a Type change) moves.
 */
function keepsPhysicalId(op: PlannedOperation, desired: DesiredResource | undefined): boolean {
  if (!desired || op.previousType !== undefined || op.physicalId === undefined) return false;
  const refId = schemaFor(op.type)?.refIdentifier ?? [];
  return refId.length === 1 && desired.properties[refId[0] as string] === op.physicalId;
}

/** Reads that follow the target: a kept id leaves Ref-only readers alone, not GetAtt ones. */
function followingReads(reader: DesiredResource, target: string, keepsId: boolean): ResourceRead[] {
  return (reader.reads ?? []).filter((read) => read.target === target && !(keepsId && read.via === 'ref'));
}

/**
 * Spec 002 "Readers of the target": the plan counts every reader of a replaced resource as
 * an update, re-resolved once the target is recreated (whether its id moves is known only
 * then). A reader whose referencing property is create-only is flagged as replaced if the
 * id changes, and its own create-only readers in turn.
 */
export function followReplacedTargets(
  operations: readonly PlannedOperation[],
  desired: readonly DesiredResource[],
): PlannedOperation[] {
  const ops = new Map(operations.map((op) => [op.logicalId, { ...op }]));
  const desiredById = new Map(desired.map((d) => [d.logicalId, d]));
  const queue = operations.filter((op) => op.kind === 'replace').map((op) => op.logicalId);
  const queued = new Set(queue);

  for (let target = queue.shift(); target !== undefined; target = queue.shift()) {
    const targetOp = ops.get(target) as PlannedOperation;
    const keepsId = keepsPhysicalId(targetOp, desiredById.get(target));
    const how = targetOp.kind === 'replace' ? 'is replaced' : 'may be replaced';
    for (const reader of desired) {
      const reads = followingReads(reader, target, keepsId);
      const op = ops.get(reader.logicalId);
      if (reads.length === 0 || !op) continue;
      op.reresolveAfter = [...new Set([...op.reresolveAfter, target])].sort();
      const line = `reads ${target} (${reads.map((r) => `${r.property} via ${r.via}`).join(', ')}), which ${how}: re-resolved after it`;
      if (op.kind === 'no-op') {
        op.kind = 'update';
        op.reason = line;
      } else {
        op.notes = [...op.notes, line];
      }
      const createOnly = reads.filter((r) => replacementOf(op.type, r.property) === 'yes');
      if (op.kind === 'update' && createOnly.length > 0 && !op.replacedIfIdChanges) {
        op.replacedIfIdChanges = true;
        op.notes = [
          ...op.notes,
          `replaced if ${target}'s id changes: ${createOnly.map((r) => r.property).join(', ')} is create-only`,
        ];
        if (!queued.has(op.logicalId)) {
          queued.add(op.logicalId);
          queue.push(op.logicalId);
        }
      }
    }
  }
  return operations.map((op) => ops.get(op.logicalId) as PlannedOperation);
}
