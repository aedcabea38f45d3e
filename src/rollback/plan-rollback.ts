import type { JournalOperation, JournalSegment } from '../state/documents/journal-document.js';
import type { StateDocument } from '../state/documents/state-document.js';
import { decideOperation } from './decisions/operation.js';
import { madeStep, type MadeContext } from './made-step.js';
import type { RollbackStep } from './steps.js';

const NESTED_STACK_TYPE = 'AWS::CloudFormation::Stack';

export interface RollbackOptions {
  revertFailed: boolean;
  /** Logical ids to leave as they are (`--orphan`). */
  orphan: ReadonlySet<string>;
}

export interface PlannedStep {
  op: JournalOperation;
  step: RollbackStep;
}

/**
 * A segment's operations → the rollback's steps, in the order they run:
 * the resources failed creates made first (spec 000, "Automatic rollback:
 * deleted before the completed operations are reverted"), then every
 * operation newest first.
 */
export function planRollback(input: {
  segment: JournalSegment;
  /** The whole journal, oldest segment first: newer segments decide over older entries. */
  segments: readonly JournalSegment[];
  state: StateDocument;
  options: RollbackOptions;
  path: 'automatic-rollback' | 'rollback';
  knownType(type: string): boolean;
  gathered?: MadeContext['gathered'];
}): PlannedStep[] {
  const { segment, state, options, knownType } = input;
  const marks = new Map(segment.importMarks.map((mark) => [mark.logicalId, mark]));
  const replacedOrDeleted = new Map(
    segment.operations.flatMap((op) => {
      const old =
        op.action === 'replace' ? op.previousPhysicalId : op.action === 'delete' ? op.physicalId : undefined;
      return typeof old === 'string' && old !== '' ? [[old, op.logicalId] as const] : [];
    }),
  );
  const made = segment.operations
    .filter((op) => op.made && !options.orphan.has(op.logicalId) && !marks.has(op.logicalId))
    .map((op) => ({
      op,
      step: madeStep(op, {
        path: input.path,
        segments: input.segments,
        segment,
        state,
        ...(input.gathered ? { gathered: input.gathered } : {}),
      }),
    }));
  const reverted = [...segment.operations]
    .sort((a, b) => b.seq - a.seq)
    .map((op) => ({
      op,
      step: replaysNested(op, options, marks.has(op.logicalId))
        ? ({ kind: 'nested', logicalId: op.logicalId, runId: segment.runId } as const)
        : refusesFailedNested(op, options, input.path, marks.has(op.logicalId))
          ? ({
              kind: 'refuse',
              logicalId: op.logicalId,
              code: 'ROLLBACK_NESTED_FAILED',
              reason: `the nested stack's own deploy failed in this run; pass --revert-failed to replay its completed operations, then roll back what failed inside it with cdkd rollback '<stack>~${op.logicalId}' --revert-failed`,
            } as const)
          : decideOperation(op, {
              ...(state.resources[op.logicalId] ? { record: state.resources[op.logicalId] } : {}),
              oldPending: state.pendingDeletes.some(
                (pending) =>
                  pending.logicalId === op.logicalId && pending.record.physicalId === op.previousPhysicalId,
              ),
              revertFailed: options.revertFailed,
              orphaned: options.orphan.has(op.logicalId),
              ...(marks.get(op.logicalId) ? { importMark: marks.get(op.logicalId)! } : {}),
              knownType,
              replacedOrDeleted,
            }),
    }));
  return [...made, ...reverted];
}

/**
 * A nested stack's update is reverted by replaying its own segment of the same run
 * (spec 001, "Nested stacks"); a failed one only under --revert-failed.
 */
function replaysNested(op: JournalOperation, options: RollbackOptions, marked: boolean): boolean {
  if (op.type !== NESTED_STACK_TYPE || op.action !== 'update' || marked || options.orphan.has(op.logicalId)) {
    return false;
  }
  return op.status === 'completed' || (op.status === 'failed' && options.revertFailed);
}

/**
 * Spec 001, "Nested stacks": when the nested stack's own deploy failed, a plain `cdkd rollback`
 * of the parent refuses (the automatic rollback already rolled the child back itself).
 */
function refusesFailedNested(
  op: JournalOperation,
  options: RollbackOptions,
  path: 'automatic-rollback' | 'rollback',
  marked: boolean,
): boolean {
  if (op.type !== NESTED_STACK_TYPE || op.action !== 'update' || op.status !== 'failed') return false;
  return path === 'rollback' && !options.revertFailed && !marked && !options.orphan.has(op.logicalId);
}

/** One plan line per step, as `cdkd rollback` prints it before asking. */
export function describeStep(planned: PlannedStep): string {
  const { op, step } = planned;
  const head = `${step.logicalId} (${op.type})`;
  switch (step.kind) {
    case 'delete':
      return step.retain
        ? `${head}: keep ${step.record.physicalId} (DeletionPolicy ${step.record.deletionPolicy ?? op.deletionPolicy}), drop it from state`
        : `${head}: delete ${step.record.physicalId}`;
    case 'revert':
      return `${head}: revert ${step.current.physicalId} to its pre-deploy properties`;
    case 'reverse-replace': {
      const types = step.before.type !== op.type ? ` from ${op.type} to ${step.before.type}` : '';
      const old =
        step.old === 'deleted' ? `re-create ${step.before.physicalId}` : `re-adopt ${step.before.physicalId}`;
      const fresh = step.current
        ? step.keepNew
          ? `keep ${step.current.physicalId} (UpdateReplacePolicy: Retain)`
          : `delete ${step.current.physicalId}`
        : 'the new copy is already gone';
      return `${head}: reverse-replace${types} (${step.order}): ${old}, ${fresh}`;
    }
    case 'delete-made':
      return `${head}: delete ${step.physicalId}, which the failed create made${step.retain ? ' (kept: DeletionPolicy)' : ''}`;
    case 'nested':
      return `${head}: replay the nested stack's operations of this run`;
    case 'skip':
      return `${head}: skip: ${step.reason}`;
    case 'refuse':
      return `${head}: (REFUSED) ${step.reason}`;
  }
}
