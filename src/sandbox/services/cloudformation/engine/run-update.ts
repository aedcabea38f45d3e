import type { StackOperation } from './operation.js';
import type { Proposal } from './proposal.js';
import { applyUpdate, beginUpdate, finishUpdate } from './update.js';
import { rollbackUpdate } from './update-rollback.js';

/**
 * UpdateStack and an UPDATE change set: the attempt written onto the stack, applied, then
 * cleaned up (UPDATE_COMPLETE); a failure rolls back (UPDATE_ROLLBACK_COMPLETE), or, with
 * DisableRollback, stops at UPDATE_FAILED keeping the attempt (seed 004).
 */
export async function runUpdate(
  op: StackOperation,
  proposal: Proposal,
  disableRollback: boolean,
): Promise<void> {
  await beginUpdate(op, proposal.generation, 'UPDATE_IN_PROGRESS');
  const failure = await applyUpdate(op, proposal.evaluation);
  if (failure === undefined) {
    await finishUpdate(op);
    return;
  }
  if (disableRollback) {
    await op.status('UPDATE_FAILED', failure);
    return;
  }
  await op.status('UPDATE_ROLLBACK_IN_PROGRESS', failure);
  await rollbackUpdate(op);
}
