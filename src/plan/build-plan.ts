import { deletionEdges, deployEdges, topologicalOrder } from './dag.js';
import { refuseUnsupportedTypes } from './guards/unsupported-types.js';
import { diffProperties } from './property-diff.js';
import { hasLegacyEmptyHash, propertyHash } from './property-hash.js';
import { followReplacedTargets } from './readers.js';
import { applyRecreateVia } from './recreate-via.js';
import { needsRegistry } from './registry-schema.js';
import { decideReplacement, describeCause } from './replacement.js';
import { isUnresolved } from './unresolved.js';
import type {
  DesiredResource,
  Plan,
  PlanInput,
  PlanOptions,
  PlannedOperation,
  RecordedResource,
} from './types.js';

function baseOperation(desired: DesiredResource, dependsOn: string[]): PlannedOperation {
  return {
    logicalId: desired.logicalId,
    kind: 'create',
    type: desired.type,
    reason: 'new in the template',
    changedProperties: [],
    replacementCauses: [],
    notes: [],
    propertyHash: propertyHash(desired.properties),
    dependsOn,
    phase: 'deploy',
    reresolveAfter: [],
    replacedIfIdChanges: false,
    ...(desired.deletionPolicy !== undefined && { deletionPolicy: desired.deletionPolicy }),
    ...(desired.updateReplacePolicy !== undefined && { updateReplacePolicy: desired.updateReplacePolicy }),
  };
}

/** Why a recorded resource of the same type counts as unchanged, or undefined when it changed. */
function unchangedReason(
  desired: DesiredResource,
  record: RecordedResource,
  hash: string,
): string | undefined {
  if (record.type !== desired.type) return undefined;
  if (hasLegacyEmptyHash(record.propertyHash)) {
    return 'no recorded property hash (legacy record): treated as unchanged, hash recorded now';
  }
  return record.propertyHash === hash ? 'unchanged (same property hash)' : undefined;
}

/**
 * The types whose replacement verdict the CloudFormation registry should give before
 * buildPlan runs: a recorded resource of the same type with a changed property that no
 * rule of cdkd's own decides. An unchanged resource asks nothing, so a no-op deploy makes
 * no registry call.
 */
export function registryTypesToRead(input: Pick<PlanInput, 'desired' | 'recorded'>): string[] {
  const types = new Set<string>();
  for (const desired of input.desired) {
    const record = Object.hasOwn(input.recorded, desired.logicalId)
      ? input.recorded[desired.logicalId]
      : undefined;
    if (!record || record.type !== desired.type || types.has(desired.type)) continue;
    if (unchangedReason(desired, record, propertyHash(desired.properties)) !== undefined) continue;
    if (needsRegistry(desired.type, diffProperties(record.properties, desired.properties).changed)) {
      types.add(desired.type);
    }
  }
  return [...types].sort();
}

/** Whether the plan answers this desired resource as a no-op from its record's hash alone. */
export function unchangedByHash(desired: DesiredResource, recorded: PlanInput['recorded']): boolean {
  const record = Object.hasOwn(recorded, desired.logicalId) ? recorded[desired.logicalId] : undefined;
  return (
    record !== undefined && unchangedReason(desired, record, propertyHash(desired.properties)) !== undefined
  );
}

/** One desired resource against its record: create, no-op, update or replace. */
function planResource(
  desired: DesiredResource,
  record: RecordedResource | undefined,
  dependsOn: string[],
  options: PlanOptions,
): PlannedOperation {
  const op = baseOperation(desired, dependsOn);
  if (!record) return op;
  op.physicalId = record.physicalId;
  const typeChanged = record.type !== desired.type;
  const unchanged = unchangedReason(desired, record, op.propertyHash as string);
  if (unchanged !== undefined) return { ...op, kind: 'no-op', reason: unchanged };
  // A reader of a resource this run makes (a stage of a new deployment) holds a placeholder:
  // which of its properties change is known only once that resource exists, so it is planned
  // as an update and decided again then (the executor's replan), not replaced for a
  // create-only property the placeholder merely lacks (followReplacedTargets marks one that
  // reads it into a create-only property as possibly replaced).
  if (isUnresolved(desired.properties) && !typeChanged) {
    return { ...op, kind: 'update', reason: 'reads a resource this deploy makes: decided once it exists' };
  }
  const diff = diffProperties(record.properties, desired.properties);
  const registry = options.registry?.get(desired.type);
  const decision = decideReplacement({
    type: desired.type,
    previousType: record.type,
    changedProperties: diff.changed,
    recordedProperties: record.properties,
    desiredProperties: desired.properties,
    providerCanUpdate: options.providerCanUpdate,
    ...(registry !== undefined && { registry }),
    ...(desired.unsent !== undefined && { unsent: desired.unsent }),
  });
  const changed = diff.changed.length > 0 ? `changed: ${diff.changed.join(', ')}` : 'property hash differs';
  const masked = diff.masked.map((p) => `${p} is masked in state (NoEcho) and could not be compared`);
  return {
    ...op,
    kind: decision.replace ? 'replace' : 'update',
    ...(typeChanged && { previousType: record.type }),
    reason: [changed, ...decision.causes.map(describeCause)].join('; '),
    changedProperties: diff.changed,
    replacementCauses: decision.causes,
    notes: [...decision.notes, ...masked],
  };
}

function deleteOperation(logicalId: string, record: RecordedResource, dependsOn: string[]): PlannedOperation {
  return {
    logicalId,
    kind: 'delete',
    type: record.type,
    physicalId: record.physicalId,
    reason: 'removed from the template',
    changedProperties: [],
    replacementCauses: [],
    notes: [],
    dependsOn,
    phase: 'cleanup',
    reresolveAfter: [],
    replacedIfIdChanges: false,
    ...(record.deletionPolicy !== undefined && { deletionPolicy: record.deletionPolicy }),
  };
}

/**
 * Desired resources against recorded state → one operation per logical id. Pure: it reads
 * the bundled schema index and the injected callbacks, never AWS, and refuses (throws)
 * before returning when a type cannot be handled or dependencies are broken.
 */
export function buildPlan(input: PlanInput, options: PlanOptions): Plan {
  const desiredIds = new Set(input.desired.map((d) => d.logicalId));
  const removed = Object.keys(input.recorded)
    .filter((id) => !desiredIds.has(id))
    .sort()
    .map((logicalId) => {
      const record = input.recorded[logicalId] as RecordedResource;
      return { logicalId, type: record.type, record, dependencies: record.dependencies ?? [] };
    });
  const previousTypes = input.desired.flatMap((d) => {
    const record = input.recorded[d.logicalId];
    return record && record.type !== d.type ? [{ logicalId: d.logicalId, type: record.type }] : [];
  });
  refuseUnsupportedTypes(
    [...input.desired, ...previousTypes, ...removed, ...(input.nested ?? [])],
    options.canHandle,
  );

  const edges = deployEdges(input.desired);
  const byId = new Map(input.desired.map((d) => [d.logicalId, d]));
  const deployOps = topologicalOrder(edges).map((id) =>
    applyRecreateVia(
      planResource(byId.get(id) as DesiredResource, input.recorded[id], edges.get(id) ?? [], options),
      input.recorded[id],
      input.recreateVia?.[id],
    ),
  );
  const cleanupEdges = deletionEdges(removed);
  const removedById = new Map(removed.map((r) => [r.logicalId, r.record]));
  const cleanupOps = topologicalOrder(cleanupEdges).map((id) =>
    deleteOperation(id, removedById.get(id) as RecordedResource, cleanupEdges.get(id) ?? []),
  );
  const followed = followReplacedTargets(deployOps, input.desired, input.recorded, input.movingImports);
  return { operations: [...followed, ...cleanupOps] };
}
