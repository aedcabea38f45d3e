import { linksTo } from './parent-children.js';
import { replacementOf, schemaFor } from '../resource-types/index.js';
import { isUnresolved } from './unresolved.js';
import type { DesiredResource, PlannedOperation, RecordedResource, ResourceRead } from './types.js';

/**
 * A recreated target keeps its physical id when that id is its name, fixed as a literal in
 * the template and equal to the recorded one (spec 002: a function with an explicit
 * FunctionName). Anything else moves: an AWS-assigned id, a name that differs, a name
 * computed from a reference (it may read a target whose id moves), a Type change.
 */
export function keepsPhysicalId(op: PlannedOperation, desired: DesiredResource | undefined): boolean {
  if (!desired || op.previousType !== undefined || op.physicalId === undefined) return false;
  const refId = schemaFor(op.type)?.refIdentifier ?? [];
  if (refId.length !== 1) return false;
  const name = refId[0] as string;
  const computed = (desired.reads ?? []).some((read) => read.property === name);
  return !computed && desired.properties[name] === op.physicalId;
}

/** Reads that follow the target: a kept id leaves Ref-only readers alone, not GetAtt ones. */
function followingReads(reader: DesiredResource, target: string, keepsId: boolean): ResourceRead[] {
  return (reader.reads ?? []).filter(
    (read) => read.target === target && read.via !== 'import' && !(keepsId && read.via === 'ref'),
  );
}

/**
 * Marks `op` as following `target` (a logical id of this stack, or what a moving import is
 * called): counted as an update, run and re-resolved after it.
 */
function follow(op: PlannedOperation, target: string, line: string, targetOp?: PlannedOperation): void {
  op.reresolveAfter = [...new Set([...op.reresolveAfter, target])].sort();
  // A child naming its parent by a literal has no edge to it yet; never one that closes a cycle.
  if (targetOp && !op.dependsOn.includes(target) && !targetOp.dependsOn.includes(op.logicalId))
    op.dependsOn = [...op.dependsOn, target];
  if (op.kind === 'no-op') {
    op.kind = 'update';
    op.reason = line;
  } else if (!op.notes.includes(line)) {
    op.notes = [...op.notes, line];
  }
}

/** Flags a following update whose `reads` include a create-only property; true when newly flagged. */
function flagCreateOnly(
  op: PlannedOperation,
  reads: readonly ResourceRead[],
  target: string,
  when = `${target}'s id changes`,
): boolean {
  const createOnly = reads.filter((r) => replacementOf(op.type, r.property) === 'yes');
  if (op.kind !== 'update' || createOnly.length === 0 || op.replacedIfIdChanges) return false;
  op.replacedIfIdChanges = true;
  op.notes = [
    ...op.notes,
    `replaced if ${when}: ${createOnly.map((r) => r.property).join(', ')} is create-only`,
  ];
  return true;
}

const describeReads = (reads: readonly ResourceRead[]) =>
  reads.map((r) => `${r.property} via ${r.via}`).join(', ');

/**
 * Spec 002 "Readers of the target": the plan counts every reader of a replaced resource (a
 * --recreate-via-* target is planned as one) as an update, re-resolved once the target is recreated (whether its
 * id moves is known only then). A reader whose referencing property is create-only is
 * flagged as replaced if the id changes, and its own create-only readers in turn. Readers of
 * an export another stack of the run moves (`movingImports`) follow it the same way. Then
 * "Children deleted with the target" (see followRecreatedParents).
 */
export function followReplacedTargets(
  operations: readonly PlannedOperation[],
  desired: readonly DesiredResource[],
  recorded: Readonly<Record<string, RecordedResource>> = {},
  movingImports: ReadonlyMap<string, string> = new Map(),
): PlannedOperation[] {
  const ops = new Map(operations.map((op) => [op.logicalId, { ...op }]));
  const desiredById = new Map(desired.map((d) => [d.logicalId, d]));
  const targets = operations.filter((op) => op.kind === 'replace').map((op) => op.logicalId);
  const queue = [...targets];
  const queued = new Set(queue);
  for (const reader of desired) {
    const op = ops.get(reader.logicalId);
    const reads = (reader.reads ?? []).filter((r) => r.via === 'import' && movingImports.has(r.target));
    if (!op || reads.length === 0) continue;
    for (const name of new Set(reads.map((r) => r.target))) {
      const label = movingImports.get(name) as string;
      const own = reads.filter((r) => r.target === name);
      follow(
        op,
        label,
        `reads ${label} through export ${name} (${describeReads(own)}), which this run moves first`,
      );
      if (flagCreateOnly(op, own, label) && !queued.has(op.logicalId)) {
        queued.add(op.logicalId);
        queue.push(op.logicalId);
      }
    }
  }

  // A reader of a resource this deploy creates is planned as an update decided once that one
  // exists; where it reads it into a create-only property, the plan says it may be replaced
  // (and the stateful guard weighs it) before anything is made.
  for (const reader of desired) {
    const op = ops.get(reader.logicalId);
    if (!op || !isUnresolved(reader.properties)) continue;
    const reads = (reader.reads ?? []).filter(
      (r) => r.via !== 'import' && ops.get(r.target)?.kind === 'create',
    );
    for (const target of new Set(reads.map((r) => r.target))) {
      const own = reads.filter((r) => r.target === target);
      if (
        flagCreateOnly(op, own, target, `the value ${target} gives it differs`) &&
        !queued.has(op.logicalId)
      ) {
        queued.add(op.logicalId);
        queue.push(op.logicalId);
      }
    }
  }

  for (let target = queue.shift(); target !== undefined; target = queue.shift()) {
    const targetOp = ops.get(target) as PlannedOperation;
    const keepsId = keepsPhysicalId(targetOp, desiredById.get(target));
    const how = targetOp.kind === 'replace' ? 'is replaced' : 'may be replaced';
    for (const reader of desired) {
      const reads = followingReads(reader, target, keepsId);
      const op = ops.get(reader.logicalId);
      if (reads.length === 0 || !op) continue;
      follow(
        op,
        target,
        `reads ${target} (${describeReads(reads)}), which ${how}: re-resolved after it`,
        targetOp,
      );
      if (flagCreateOnly(op, reads, target) && !queued.has(op.logicalId)) {
        queued.add(op.logicalId);
        queue.push(op.logicalId);
      }
    }
  }
  followRecreatedParents(ops, desired, recorded, targets);
  return operations.map((op) => ops.get(op.logicalId) as PlannedOperation);
}

/** The identifiers a child may name its parent by: the physical id and, where recorded, the ARN. */
export function parentIdentifiers(record: RecordedResource): Set<string> {
  const arn = record.attributes?.['Arn'];
  return new Set([record.physicalId, ...(typeof arn === 'string' ? [arn] : [])]);
}

/**
 * Spec 002 "Children deleted with the target": a child of a replaced resource (by a read of
 * its parent property, or a recorded value naming the parent, as a literal name does) is
 * counted as an update and runs after the parent, so that where the parent comes back under
 * the same physical id the engine re-creates the child, whose record went with the parent.
 */
function followRecreatedParents(
  ops: Map<string, PlannedOperation>,
  desired: readonly DesiredResource[],
  recorded: Readonly<Record<string, RecordedResource>>,
  targets: readonly string[],
): void {
  for (const target of targets) {
    const targetOp = ops.get(target) as PlannedOperation;
    const parentRecord = recorded[target];
    const parentType = targetOp.previousType ?? targetOp.type;
    const ids = parentRecord ? parentIdentifiers(parentRecord) : new Set<string>();
    for (const child of desired) {
      const op = ops.get(child.logicalId);
      const links = linksTo(child.type, parentType);
      if (!op || links.length === 0 || child.logicalId === target) continue;
      const properties = new Set(links.map((link) => link.property));
      const read = (child.reads ?? []).some(
        (r) => r.target === target && r.via !== 'import' && properties.has(r.property),
      );
      const record = recorded[child.logicalId];
      const names = links.some((link) =>
        [record?.properties[link.property]].flat().some((v) => typeof v === 'string' && ids.has(v)),
      );
      if (read || names)
        follow(op, target, `lives on ${target}: re-created with it if it keeps its id`, targetOp);
    }
  }
}
