import type { JournalOperation, JournalSegment, StateDocument } from '../state/index.js';
import { isStateful, NESTED_STACK_TYPE } from '../resource-types/index.js';
import { isAddressable } from '../rollback-decisions/index.js';
import { decideOperation } from '../rollback-decisions/index.js';
import { madeStep, type MadeContext } from './made-step.js';
import type { RollbackStep } from '../rollback-decisions/index.js';

export interface RollbackOptions {
  revertFailed: boolean;
  /** Logical ids to leave as they are (`--orphan`). */
  orphan: ReadonlySet<string>;
  /** Set when the stack is a nested stack. */
  nested?: NestedScope;
}

/**
 * Spec 001, "Nested stacks": how a nested stack's rollback stands to its parent's journal.
 * `replayed`: its parent's rollback replays the run and leaves the failed operations for the
 * nested stack's own rollback (`stack` as the command line names it, `Top~Child`).
 * `direct`: a rollback of the nested stack itself, whose runs the journal of `parent` (a state
 * name) no longer holds, so its completed operations are discarded rather than reverted.
 */
export type NestedScope = { kind: 'replayed'; stack: string } | { kind: 'direct'; parent: string };

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
    .filter(
      (op) =>
        op.made && !options.orphan.has(op.logicalId) && !marks.has(op.logicalId) && !leaves(op, options),
    )
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
      step:
        scopedStep(op, options, segment.runId) ??
        nestedStackStep(op, options, input.path, marks.has(op.logicalId), segment.runId, state) ??
        decideOperation(op, {
          ...(state.resources[op.logicalId] ? { record: state.resources[op.logicalId] } : {}),
          oldPending: state.pendingDeletes.some(
            (pending) =>
              pending.logicalId === op.logicalId && pending.record.physicalId === op.previousPhysicalId,
          ),
          revertFailed: options.revertFailed,
          orphaned: options.orphan.has(op.logicalId),
          ...(marks.get(op.logicalId) ? { importMark: marks.get(op.logicalId)! } : {}),
          knownType,
          holdsData: isStateful,
          replacedOrDeleted,
        }),
    }));
  return [...made, ...reverted];
}

/**
 * The command that rolls back the operations a parent's replay left in a nested stack's journal
 * (`stack` as `Top~Child`): a plain one deletes what failed creates made; the rest need --revert-failed.
 */
export function leftCommand(stack: string, left: readonly JournalOperation[]): string {
  const plain = left.every((op) => op.made !== undefined && op.action === 'create');
  return `cdkd rollback '${stack}'${plain ? '' : ' --revert-failed'}`;
}

/** A failed operation a parent's replay of this nested stack leaves in its journal. */
function leaves(op: JournalOperation, options: RollbackOptions): boolean {
  return options.nested?.kind === 'replayed' && op.status === 'failed';
}

/**
 * Spec 001, "Nested stacks": a parent's replay leaves the nested stack's failed operations to
 * its own rollback; a direct rollback drops the completed operations of runs its parent moved
 * on from, as reverting them would put the nested stack out of step with its parent.
 */
function scopedStep(op: JournalOperation, options: RollbackOptions, runId: string): RollbackStep | undefined {
  const scope = options.nested;
  if (scope?.kind === 'replayed' && leaves(op, options)) {
    return { kind: 'leave', logicalId: op.logicalId, command: leftCommand(scope.stack, [op]) };
  }
  if (scope?.kind === 'direct' && op.status === 'completed') {
    return {
      kind: 'discard',
      logicalId: op.logicalId,
      reason: `the journal of ${scope.parent} no longer holds run ${runId}; the nested stack keeps this change`,
    };
  }
  return undefined;
}

/**
 * A nested stack's update: replayed, or refused when its own deploy failed; undefined for any
 * other operation, and for a record Cloud Control holds under an id cdkd cannot address (spec
 * 000: only cdkd's own nested stacks are found by name).
 */
function nestedStackStep(
  op: JournalOperation,
  options: RollbackOptions,
  path: 'automatic-rollback' | 'rollback',
  marked: boolean,
  runId: string,
  state: StateDocument,
): RollbackStep | undefined {
  const record = state.resources[op.logicalId];
  if (record?.provisionedBy === 'cc-api' && !isAddressable(record.physicalId)) return undefined;
  if (replaysNested(op, options, marked)) return { kind: 'nested', logicalId: op.logicalId, runId };
  if (!refusesFailedNested(op, options, path, marked)) return undefined;
  const child = `${state.stackName}/${op.logicalId}`.replaceAll('/', '~');
  return {
    kind: 'refuse',
    logicalId: op.logicalId,
    code: 'ROLLBACK_NESTED_FAILED',
    reason: `the nested stack's own deploy failed in this run; pass --revert-failed to replay its completed operations, then roll back what failed inside it with cdkd rollback '${child}' --revert-failed`,
  };
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

/** Spec 001, "Reversing a replacement", the Warning. */
const STARTS_EMPTY =
  "the replacement destroyed the old resource's data and the rollback does not recover it: the re-created resource starts empty";

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
      const warnings = [...(step.startsEmpty ? [STARTS_EMPTY] : []), ...step.warnings]
        .map((warning) => `; warning: ${warning}`)
        .join('');
      return `${head}: reverse-replace${types} (${step.order}): ${old}, ${fresh}${warnings}`;
    }
    case 'delete-made':
      return `${head}: delete ${step.physicalId}, which the failed create made${step.retain ? ' (kept: DeletionPolicy)' : ''}`;
    case 'nested':
      return `${head}: replay the nested stack's operations of this run`;
    case 'skip':
      return `${head}: skip: ${step.reason}`;
    case 'refuse':
      return `${head}: (REFUSED) ${step.reason}`;
    case 'leave':
      return `${head}: left for the nested stack's own rollback: ${step.command}`;
    case 'discard':
      return `${head}: discard: ${step.reason}`;
  }
}
