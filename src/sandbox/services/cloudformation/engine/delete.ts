import { finishDeletion } from './create.js';
import type { StackOperation } from './operation.js';
import { deleteResources, failedResources, keepOnDelete } from './resource-steps.js';

/**
 * DELETE_IN_PROGRESS → every resource, dependents first (Retain, RetainExceptOnCreate and
 * the RetainResources of a retried deletion kept) → DELETE_COMPLETE, or DELETE_FAILED.
 */
export async function runDelete(op: StackOperation, retain: ReadonlySet<string>): Promise<void> {
  await op.status('DELETE_IN_PROGRESS', 'User Initiated');
  const live = Object.values(op.stack.resources)
    .filter((record) => record.status !== 'DELETE_COMPLETE' && record.status !== 'DELETE_SKIPPED')
    .map((record) => record.logicalId);
  const failures = await deleteResources(
    op,
    live,
    (record) => keepOnDelete(record) || retain.has(record.logicalId),
  );
  if (failures.length > 0) {
    await op.status('DELETE_FAILED', failedResources('delete', failures));
    return;
  }
  delete op.stack.previous;
  delete op.stack.journal;
  await finishDeletion(op);
}
