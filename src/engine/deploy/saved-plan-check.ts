import { CdkdError } from '../../errors.js';
import { operationMoves, type PlannedOperation } from '../../plan/index.js';
import type { SavedStackPlan } from '../stack-request.js';

/**
 * `cdkd deploy --plan`, under the lock: the state read now is the one the plan was made from.
 * Checked before anything settles or writes, so a refusal leaves state as it was.
 */
export function refuseMovedState(saved: SavedStackPlan, stackName: string, etag: string | undefined): void {
  const now = etag ?? null;
  if (now === saved.stateEtag) return;
  const what =
    saved.stateEtag === null
      ? 'the stack had no state when the plan was made; it has now'
      : now === null
        ? 'its state is gone since the plan was made'
        : 'its state changed since the plan was made (another deploy, rollback or state command ran)';
  throw stalePlan(saved.file, [`${stackName}: ${what}`]);
}

/**
 * The plan made now under the lock holds the saved operations. Planning reads AWS as well as
 * state and the template (SSM parameters, live attributes, other stacks' exports, whether a name
 * is free), so equal inputs alone do not prove an equal plan.
 */
export function refuseMovedOperations(
  saved: SavedStackPlan,
  stackName: string,
  operations: readonly PlannedOperation[],
): void {
  const moves = operationMoves(saved.operations, operations);
  if (moves.length === 0) return;
  throw stalePlan(
    saved.file,
    moves.map((move) => `${stackName}: the plan made now differs: ${move}`),
  );
}

/** The one refusal of a saved plan whose inputs or operations moved, naming each move. */
export function stalePlan(file: string, moves: readonly string[]): CdkdError {
  return new CdkdError(
    'SAVED_PLAN_STALE',
    `The saved plan ${file} no longer matches; nothing was changed:\n${moves.map((move) => `  - ${move}`).join('\n')}`,
    { hint: `Review the changes again with cdkd diff --out ${file}, then run cdkd deploy --plan ${file}.` },
  );
}
