import { walkGraph } from './graph-walk.js';
import { PersistFailure } from './failures.js';
import type { StackOperation } from './operation.js';
import { publishOutputs } from './outputs.js';
import {
  createResource,
  deleteResources,
  failedResources,
  keepOnRollbackOfCreate,
  templateRecord,
  type Evaluation,
} from './resource-steps.js';

/** CreateStack's OnFailure: roll back (the default), delete the stack, or keep what was made. */
export type OnFailure = 'ROLLBACK' | 'DELETE' | 'DO_NOTHING';

/** CREATE_IN_PROGRESS → every resource in dependency order → outputs → CREATE_COMPLETE, or the failure path. */
export async function runCreate(
  op: StackOperation,
  evaluation: Evaluation,
  onFailure: OnFailure,
): Promise<void> {
  await op.status('CREATE_IN_PROGRESS', 'User Initiated');
  const failure = await createAll(op, evaluation);
  if (failure === undefined) {
    await op.status('CREATE_COMPLETE');
    return;
  }
  if (onFailure === 'DO_NOTHING') {
    await op.status('CREATE_FAILED', failure);
    return;
  }
  if (onFailure === 'DELETE') {
    await op.status('DELETE_IN_PROGRESS', failure);
    const failures = await deleteResources(op, Object.keys(op.stack.resources), keepOnRollbackOfCreate);
    if (failures.length > 0) await op.status('DELETE_FAILED', failedResources('delete', failures));
    else await finishDeletion(op);
    return;
  }
  // CloudFormation appends its sentence to the failure's: "…by stack producer. Rollback requested by user."
  const lead = /\.\s*$/.test(failure) ? failure.trimEnd() : `${failure}.`;
  await op.status('ROLLBACK_IN_PROGRESS', `${lead} Rollback requested by user.`);
  await rollBackCreate(op);
}

/** Deletes what a failed create made (RollbackStack from CREATE_FAILED too): ROLLBACK_COMPLETE or ROLLBACK_FAILED. */
export async function rollBackCreate(op: StackOperation): Promise<void> {
  const failures = await deleteResources(op, Object.keys(op.stack.resources), keepOnRollbackOfCreate);
  if (failures.length > 0) await op.status('ROLLBACK_FAILED', failedResources('delete', failures));
  else await op.status('ROLLBACK_COMPLETE');
}

export async function finishDeletion(op: StackOperation): Promise<void> {
  op.stack.deletionTime = new Date().toISOString();
  op.stack.changeSets = [];
  await op.status('DELETE_COMPLETE');
}

/** Creates every active resource; the reason the stack fails, or undefined. */
async function createAll(op: StackOperation, evaluation: Evaluation): Promise<string | undefined> {
  const { failures } = await walkGraph(
    evaluation.prepared.activeResources,
    (id) => evaluation.graph.dependencies(id),
    (id) => createResource(op, evaluation, templateRecord(evaluation, id)),
    { stop: () => op.stopping() },
  );
  const lost = failures.find((failure) => failure.error instanceof PersistFailure);
  if (lost) return (lost.error as Error).message;
  if (failures.length > 0) return failedResources('create', failures);
  if (op.stopping()) return 'Stack creation was stopped. ';
  return publishOutputs(op, evaluation, []);
}
