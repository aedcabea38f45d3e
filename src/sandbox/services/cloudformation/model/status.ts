import type { StackRecord, StackStatus } from './types.js';

/** CloudFormation's status machine: which operation a stack accepts in which status. */

export function inProgress(status: StackStatus): boolean {
  return status.endsWith('_IN_PROGRESS');
}

/** A stack that never got past its first change set: it has no template of its own yet. */
export function inReview(stack: StackRecord): boolean {
  return stack.status === 'REVIEW_IN_PROGRESS';
}

/** Statuses an UpdateStack or an UPDATE / IMPORT change set may start from. */
const UPDATABLE: ReadonlySet<StackStatus> = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
  // With rollback disabled, a failed operation is fixed forward (or rolled back with RollbackStack).
  'UPDATE_FAILED',
]);

export function canUpdate(stack: StackRecord): boolean {
  return UPDATABLE.has(stack.status) || (stack.status === 'CREATE_FAILED' && stack.disableRollback);
}

/** A stack in any other status than these can be deleted. */
export function canDelete(stack: StackRecord): boolean {
  return !inProgress(stack.status) || stack.status === 'REVIEW_IN_PROGRESS';
}

/** RollbackStack: back to the last stable state from a failure that kept what it made. */
export function canRollBack(stack: StackRecord): boolean {
  return stack.status === 'CREATE_FAILED' || stack.status === 'UPDATE_FAILED';
}

/** Statuses in which a stack's exports count (a stack being created has none yet). */
export function exportsLive(stack: StackRecord): boolean {
  return !['REVIEW_IN_PROGRESS', 'DELETE_COMPLETE', 'ROLLBACK_COMPLETE', 'CREATE_IN_PROGRESS'].includes(
    stack.status,
  );
}
