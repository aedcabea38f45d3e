import { stalePlan } from '../../../engine/deploy/index.js';
import type { SavedStackPlan } from '../../../engine/index.js';
import { CdkdError } from '../../../errors.js';
import type { PlannedOperation } from '../../../plan/index.js';
import { savedPlanMoves, stackSetMismatch, type CurrentRun } from './moves.js';
import type { SavedPlan } from './schema.js';

export { planFlags, stackBasis } from './basis.js';
export type { PlanFlagInput, StackBasis } from './basis.js';
export { readSavedPlan, savedPlanDocument, writeSavedPlan } from './file.js';
export type { PlannedStackEntry } from './file.js';
export { savedPlanMoves, stackSetMismatch } from './moves.js';
export type { CurrentRun } from './moves.js';
export * from './schema.js';

/**
 * `cdkd deploy --plan`, before any stack is locked: the selected stacks are the file's, and
 * nothing the plan was made from moved (cdkd's version, flags, each stack's target, template
 * and parameters, and the state ETags known so far). Refused naming every move at once.
 */
export function refuseMovedInputs(file: string, saved: SavedPlan, current: CurrentRun): void {
  const mismatch = stackSetMismatch(
    saved,
    current.stacks.map((stack) => stack.displayName),
  );
  if (mismatch) {
    const lines = [
      ...(mismatch.missing.length > 0
        ? [`selected but not in the plan: ${mismatch.missing.join(', ')}`]
        : []),
      ...(mismatch.unselected.length > 0
        ? [`in the plan but not selected: ${mismatch.unselected.join(', ')}`]
        : []),
    ];
    throw new CdkdError(
      'SAVED_PLAN_STACKS_MISMATCH',
      `The saved plan ${file} is for other stacks than this deploy selects; nothing was changed:\n${lines.map((line) => `  - ${line}`).join('\n')}`,
      {
        hint: `Select exactly the plan's stacks (${saved.stacks.map((stack) => stack.displayName).join(', ')}; -e keeps out the stacks they depend on), or make a plan for this selection with cdkd diff --out ${file}.`,
      },
    );
  }
  const moves = savedPlanMoves(saved, current);
  if (moves.length > 0) throw stalePlan(file, moves);
}

/** What the engine checks under a stack's lock. */
export function engineSavedPlan(file: string, saved: SavedPlan, displayName: string): SavedStackPlan {
  const stack = saved.stacks.find((entry) => entry.displayName === displayName)!;
  return {
    file,
    stateEtag: stack.stateEtag,
    operations: stack.operations as unknown as PlannedOperation[],
  };
}
