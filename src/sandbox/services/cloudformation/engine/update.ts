import type { StackGeneration, StackRecord, StackResourceRecord, StackStatus } from '../model/types.js';
import { isCustomResource, NESTED_STACK } from '../template/source.js';
import { PersistFailure, reasonOf } from './failures.js';
import { walkGraph } from './graph-walk.js';
import type { StackOperation } from './operation.js';
import { publishOutputs } from './outputs.js';
import { propertiesHash } from './property-hash.js';
import {
  createResource,
  deleteResources,
  evaluateProperties,
  failedResources,
  keepOnDelete,
  recordProvisioned,
  templateRecord,
  type Evaluation,
} from './resource-steps.js';
import { decideUpdate } from './update-strategy.js';

/** What an update writes onto the stack record before it touches a resource. */
export type NewGeneration = Omit<StackGeneration, 'outputs' | 'resources' | 'imports'>;

function generationOf(stack: StackRecord): StackGeneration {
  return structuredClone({
    templateBody: stack.templateBody,
    parameters: stack.parameters,
    tags: stack.tags,
    ...(stack.description !== undefined ? { description: stack.description } : {}),
    capabilities: stack.capabilities,
    notificationArns: stack.notificationArns,
    ...(stack.roleArn !== undefined ? { roleArn: stack.roleArn } : {}),
    outputs: stack.outputs,
    ...(stack.imports !== undefined ? { imports: stack.imports } : {}),
    resources: stack.resources,
  });
}

/**
 * Seed 004: the template, parameters and tags of the attempt go onto the stack record (and
 * are persisted) before any resource is touched; the generation they replace is kept for a
 * rollback. Fixing forward from UPDATE_FAILED keeps the last stable generation and journal.
 */
export async function beginUpdate(
  op: StackOperation,
  next: NewGeneration,
  status: Extract<StackStatus, 'UPDATE_IN_PROGRESS' | 'IMPORT_IN_PROGRESS'>,
): Promise<void> {
  const { stack } = op;
  if (!stack.previous) {
    stack.previous = generationOf(stack);
    stack.journal = [];
  }
  stack.templateBody = next.templateBody;
  stack.parameters = next.parameters;
  stack.tags = next.tags;
  if (next.description !== undefined) stack.description = next.description;
  else delete stack.description;
  stack.capabilities = next.capabilities;
  stack.notificationArns = next.notificationArns;
  if (next.roleArn !== undefined) stack.roleArn = next.roleArn;
  stack.lastUpdatedTime = new Date().toISOString();
  await op.status(status, 'User Initiated');
}

/**
 * Applies the new template to every active resource in dependency order (skip, update in
 * place, or replace, seed 004), then the outputs. Returns why the update failed, or
 * undefined. Resources the template no longer has wait for `finishUpdate`.
 */
export async function applyUpdate(op: StackOperation, evaluation: Evaluation): Promise<string | undefined> {
  const before = structuredClone(op.stack.outputs);
  const active = new Set(evaluation.prepared.activeResources);
  op.stack.pendingRemoval = Object.keys(op.stack.resources).filter((id) => !active.has(id));
  const { failures } = await walkGraph(
    evaluation.prepared.activeResources,
    (id) => evaluation.graph.dependencies(id),
    (id) => updateResource(op, evaluation, id),
    { stop: () => op.stopping() },
  );
  const lost = failures.find((failure) => failure.error instanceof PersistFailure);
  if (lost) return (lost.error as Error).message;
  if (failures.length > 0) return failedResources('update', failures);
  if (op.cancelled) return 'Resource update cancelled';
  if (op.stopping()) return 'The update was stopped. ';
  return publishOutputs(op, evaluation, before);
}

async function updateResource(op: StackOperation, evaluation: Evaluation, logicalId: string): Promise<void> {
  const { stack } = op;
  const journal = (stack.journal ??= []);
  const existing = stack.resources[logicalId];
  const fresh = templateRecord(evaluation, logicalId);
  if (existing?.physicalId === undefined) {
    journal.push({ kind: 'created', logicalId });
    await createResource(op, evaluation, fresh);
    return;
  }
  let properties: Record<string, unknown>;
  try {
    properties = evaluateProperties(evaluation, logicalId);
  } catch (error) {
    await op.resource(existing, 'UPDATE_FAILED', reasonOf(error));
    throw error;
  }
  const hash = propertiesHash(properties);
  const { provisioner } = op.deps;
  const decision =
    existing.type === fresh.type
      ? decideUpdate({
          recordedHash: existing.propertiesHash,
          newHash: hash,
          oldProperties: existing.properties,
          newProperties: properties,
          createOnly: provisioner.createOnlyProperties(fresh.type),
          hasUpdate: provisioner.canUpdate(fresh.type),
          ...(fresh.updateReplacePolicy !== undefined
            ? { updateReplacePolicy: fresh.updateReplacePolicy }
            : {}),
        })
      : {
          strategy: 'replace' as const,
          retainOld: fresh.updateReplacePolicy === 'Retain' || fresh.updateReplacePolicy === 'Snapshot',
        };
  const next: StackResourceRecord = {
    ...fresh,
    status: existing.status,
    properties,
    propertiesHash: hash,
    physicalId: existing.physicalId,
    ...(existing.identifier !== undefined ? { identifier: existing.identifier } : {}),
    attributes: existing.attributes,
  };
  const request = { stack, logicalId, type: fresh.type, properties };
  if (decision.strategy === 'skip') {
    stack.resources[logicalId] = next;
    await op.persist();
    return;
  }
  if (decision.strategy === 'in-place') {
    journal.push({ kind: 'updated', logicalId, before: existing });
    stack.resources[logicalId] = next;
    await op.resource(next, 'UPDATE_IN_PROGRESS', undefined, properties);
    try {
      recordProvisioned(next, await provisioner.update(request, existing));
    } catch (error) {
      if (!(error instanceof PersistFailure)) await op.resource(next, 'UPDATE_FAILED', reasonOf(error));
      throw error;
    }
    await op.resource(next, 'UPDATE_COMPLETE');
    return;
  }
  stack.resources[logicalId] = next;
  await op.resource(
    next,
    'UPDATE_IN_PROGRESS',
    'Requested update requires the creation of a new physical resource; hence creating one.',
    properties,
  );
  try {
    if (decision.retainOld) {
      journal.push({ kind: 'replaced', logicalId, before: existing, retainedOld: true });
    } else {
      await provisioner.delete(stack, existing);
      journal.push({ kind: 'replaced', logicalId, before: existing, oldDeleted: true });
    }
    await op.persist();
    recordProvisioned(next, await provisioner.create(request));
  } catch (error) {
    if (!(error instanceof PersistFailure)) await op.resource(next, 'UPDATE_FAILED', reasonOf(error));
    throw error;
  }
  await op.resource(next, 'UPDATE_IN_PROGRESS', 'Resource creation Initiated');
  await op.resource(next, 'UPDATE_COMPLETE');
}

/**
 * UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: nested stacks updated in place finish theirs, a custom
 * resource whose answer named a new physical id gets a Delete for the old one, and resources
 * the template dropped are deleted (DeletionPolicy honoured); then `complete`.
 */
export async function finishUpdate(
  op: StackOperation,
  complete: Extract<StackStatus, 'UPDATE_COMPLETE' | 'IMPORT_COMPLETE'> = 'UPDATE_COMPLETE',
): Promise<void> {
  const { stack } = op;
  if (complete === 'UPDATE_COMPLETE' && stack.status !== 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS') {
    await op.status('UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
  }
  for (const entry of stack.journal ?? []) {
    const current = stack.resources[entry.logicalId];
    if (entry.kind !== 'updated' || !current || !entry.before) continue;
    if (current.type === NESTED_STACK) await op.deps.nested.finishUpdate(current);
    if (isCustomResource(current.type) && entry.before.physicalId !== current.physicalId) {
      await op.deps.provisioner.delete(stack, entry.before).catch(() => undefined);
    }
  }
  const removed = stack.pendingRemoval ?? [];
  await deleteResources(op, removed, keepOnDelete, { dropRecords: true });
  for (const id of removed) delete stack.resources[id];
  delete stack.previous;
  delete stack.journal;
  delete stack.pendingRemoval;
  await op.status(complete);
}
