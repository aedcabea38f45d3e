import { deletionEdges, deployEdges, topologicalOrder } from './dag.js';
import { refuseUnsupportedTypes } from './guards/unsupported-types.js';
import { diffProperties } from './property-diff.js';
import { hasLegacyEmptyHash, propertyHash } from './property-hash.js';
import { followReplacedTargets } from './readers.js';
import { decideReplacement, describeCause } from './replacement.js';
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
  if (!typeChanged && hasLegacyEmptyHash(record.propertyHash)) {
    return {
      ...op,
      kind: 'no-op',
      reason: 'no recorded property hash (legacy record): treated as unchanged, hash recorded now',
    };
  }
  if (!typeChanged && record.propertyHash === op.propertyHash) {
    return { ...op, kind: 'no-op', reason: 'unchanged (same property hash)' };
  }
  const diff = diffProperties(record.properties, desired.properties);
  const decision = decideReplacement({
    type: desired.type,
    previousType: record.type,
    changedProperties: diff.changed,
    recordedProperties: record.properties,
    desiredProperties: desired.properties,
    providerCanUpdate: options.providerCanUpdate,
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
    planResource(byId.get(id) as DesiredResource, input.recorded[id], edges.get(id) ?? [], options),
  );
  const cleanupEdges = deletionEdges(removed);
  const removedById = new Map(removed.map((r) => [r.logicalId, r.record]));
  const cleanupOps = topologicalOrder(cleanupEdges).map((id) =>
    deleteOperation(id, removedById.get(id) as RecordedResource, cleanupEdges.get(id) ?? []),
  );
  const followed = followReplacedTargets(deployOps, input.desired, input.recorded, input.recreated);
  return { operations: [...followed, ...cleanupOps] };
}
