import type { AppliedChange, StackResourceRecord } from '../model/types.js';
import { NESTED_STACK } from '../template/source.js';
import { PersistFailure, reasonOf } from './failures.js';
import type { StackOperation } from './operation.js';
import { keepOnRollbackOfCreate, recordProvisioned } from './resource-steps.js';

/**
 * Undoes what the update did, newest first (its journal), then puts the previous
 * generation back on the stack record: template, parameters, tags, outputs and the
 * resource list (seed 004). A step that fails leaves UPDATE_ROLLBACK_FAILED with the rest of
 * the journal kept for ContinueUpdateRollback; a record that cannot be persisted does too.
 */
export async function rollbackUpdate(op: StackOperation): Promise<void> {
  const { stack } = op;
  const journal = stack.journal ?? [];
  while (journal.length > 0) {
    const entry = journal[journal.length - 1]!;
    try {
      await revert(op, entry);
    } catch (error) {
      if (error instanceof PersistFailure) throw error;
      await op.status(
        'UPDATE_ROLLBACK_FAILED',
        `The following resource(s) failed to update: [${entry.logicalId}]. ${reasonOf(error)}`,
      );
      return;
    }
    journal.pop();
    await op.persist();
  }
  await op.status('UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS');
  const previous = stack.previous;
  if (previous) {
    stack.templateBody = previous.templateBody;
    stack.parameters = previous.parameters;
    stack.tags = previous.tags;
    if (previous.description !== undefined) stack.description = previous.description;
    else delete stack.description;
    stack.capabilities = previous.capabilities;
    stack.notificationArns = previous.notificationArns;
    if (previous.roleArn !== undefined) stack.roleArn = previous.roleArn;
    stack.outputs = previous.outputs;
    if (previous.imports !== undefined) stack.imports = previous.imports;
    else delete stack.imports;
    stack.resources = previous.resources;
  }
  await op.persist();
  delete stack.previous;
  delete stack.journal;
  delete stack.pendingRemoval;
  await op.status('UPDATE_ROLLBACK_COMPLETE');
}

/** Drops the journal entries of resources ContinueUpdateRollback was told to skip. */
export function skipResources(journal: AppliedChange[], skip: ReadonlySet<string>): AppliedChange[] {
  return journal.filter((entry) => !skip.has(entry.logicalId));
}

async function revert(op: StackOperation, entry: AppliedChange): Promise<void> {
  const { stack, deps } = op;
  const current = stack.resources[entry.logicalId];
  const target = stack.previous?.resources;
  if (entry.kind === 'created') {
    if (current) await deleteMade(op, current, keepOnRollbackOfCreate(current));
    delete stack.resources[entry.logicalId];
    return;
  }
  const before = entry.before!;
  if (entry.kind === 'updated') {
    if (!current || current.status === 'UPDATE_FAILED') {
      stack.resources[entry.logicalId] = before;
      return;
    }
    if (current.type === NESTED_STACK) {
      await deps.nested.rollbackUpdate(current);
      stack.resources[entry.logicalId] = before;
      return;
    }
    const restored: StackResourceRecord = { ...structuredClone(before), status: 'UPDATE_IN_PROGRESS' };
    stack.resources[entry.logicalId] = restored;
    await op.resource(restored, 'UPDATE_IN_PROGRESS');
    try {
      recordProvisioned(
        restored,
        await deps.provisioner.update(
          { stack, logicalId: entry.logicalId, type: before.type, properties: before.properties },
          current,
        ),
      );
    } catch (error) {
      if (!(error instanceof PersistFailure)) await op.resource(restored, 'UPDATE_FAILED', reasonOf(error));
      throw error;
    }
    await op.resource(restored, 'UPDATE_COMPLETE');
    if (target?.[entry.logicalId]) target[entry.logicalId] = restored;
    return;
  }
  if (current && current.physicalId !== undefined && current.physicalId !== before.physicalId) {
    await deleteMade(op, current, false);
  }
  if (!entry.oldDeleted) {
    stack.resources[entry.logicalId] = before;
    return;
  }
  const recreated: StackResourceRecord = { ...structuredClone(before), status: 'UPDATE_IN_PROGRESS' };
  stack.resources[entry.logicalId] = recreated;
  await op.resource(
    recreated,
    'UPDATE_IN_PROGRESS',
    'Requested update requires the creation of a new physical resource; hence creating one.',
  );
  try {
    recordProvisioned(
      recreated,
      await deps.provisioner.create({
        stack,
        logicalId: entry.logicalId,
        type: before.type,
        properties: before.properties,
      }),
    );
  } catch (error) {
    if (!(error instanceof PersistFailure)) await op.resource(recreated, 'UPDATE_FAILED', reasonOf(error));
    throw error;
  }
  await op.resource(recreated, 'UPDATE_COMPLETE');
  if (target?.[entry.logicalId]) target[entry.logicalId] = recreated;
}

/** Deletes what the update made (or skips it under a policy that keeps it). */
async function deleteMade(op: StackOperation, record: StackResourceRecord, keep: boolean): Promise<void> {
  if (keep) {
    await op.resource(record, 'DELETE_SKIPPED');
    return;
  }
  if (record.physicalId === undefined) return;
  await op.resource(record, 'DELETE_IN_PROGRESS');
  try {
    await op.deps.provisioner.delete(op.stack, record);
  } catch (error) {
    if (!(error instanceof PersistFailure)) await op.resource(record, 'DELETE_FAILED', reasonOf(error));
    throw error;
  }
  await op.resource(record, 'DELETE_COMPLETE');
}
