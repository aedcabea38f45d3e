import type { ErrorCode } from '../error-codes.js';
import type { ImportMark, JournalOperation, ResourceRecord } from '../state/index.js';
import { keepsOnRollbackOfCreate, keepsResource } from '../template/index.js';
import { NESTED_STACK_TYPE } from '../resource-types/index.js';
import type { RollbackStep } from './steps.js';

import { isAddressable } from './addressable.js';
import { importMarkLine } from './import-marks.js';
import { isReplacement, reversalOrder } from './replacement-order.js';

/** What deciding one journaled operation reads besides the operation itself. */
export interface OperationContext {
  /** The state record now under the operation's logical id. */
  record?: ResourceRecord;
  /** The replaced (old) resource is still alive and listed in state's pendingDeletes. */
  oldPending: boolean;
  revertFailed: boolean;
  /** `--orphan <logicalId>` names this operation's logical id. */
  orphaned: boolean;
  importMark?: ImportMark;
  /** Whether a provider can address the type (for the old type of a Type change). */
  knownType(type: string): boolean;
  /** Whether the type holds data (spec 002's stateful list; conditional types count). */
  holdsData(type: string): boolean;
  /** Old physical ids the same run replaced or deleted, with their logical ids. */
  replacedOrDeleted: ReadonlyMap<string, string>;
}

/**
 * One journaled operation → what the rollback does with it (spec 000: "An
 * operation cdkd cannot address", the `--revert-failed` table, "Reversing a
 * replacement"; spec 001: the import marks). A failed create that made its
 * resource is decided by `decideMadeResource` instead; here its own entry only
 * says whether the failed operation itself needs anything.
 */
export function decideOperation(op: JournalOperation, context: OperationContext): RollbackStep {
  const id = op.logicalId;
  if (context.orphaned) return skip(id, 'left as it is (--orphan)', false);
  if (context.importMark) {
    const { warn, line } = importMarkLine(op, context.importMark);
    return skip(id, line, warn);
  }
  if (op.status === 'in-flight') return inFlight(op, context);
  if (op.action === 'delete') return skip(id, 'a delete is not undone: the resource is gone', false);
  return op.status === 'failed' ? decideFailed(op, context) : decideCompleted(op, context);
}

function decideCompleted(op: JournalOperation, context: OperationContext): RollbackStep {
  if (op.action === 'create') return rollBackCreate(op, context);
  if (isReplacement(op)) return reverseReplacement(op, context);
  return revertInPlace(op, context);
}

/** The `--revert-failed` table, row by row. */
function decideFailed(op: JournalOperation, context: OperationContext): RollbackStep {
  const id = op.logicalId;
  // The rows that do not depend on --revert-failed come first, so the plan line says what happens.
  if (op.action === 'create' && op.made) {
    return skip(id, 'a failed create that made its resource: handled by its own entry', false);
  }
  // The executor journals a Type change as a replacement: checked first, so it warns rather than passing silently.
  if (op.previousType && op.previousType !== op.type) {
    return skip(id, 'changed its Type: a replacement in flight, with no in-place revert', true);
  }
  if (op.action === 'replace') {
    if (oldGone(op, context)) {
      const old = String(op.previousPhysicalId);
      return skip(id, `the replacement deleted ${old} first and then failed: ${OLD_GONE}`, true);
    }
    if (op.verdict?.order === 'delete-first' && op.verdict.oldDeleted) {
      return skip(
        id,
        `the replacement deleted ${String(op.previousPhysicalId)} first and then failed: the resource state records is gone; a deploy that still replaces it creates it again, cdkd destroy drops the record`,
        true,
      );
    }
    return skip(id, 'the replacement failed before touching the old resource: nothing to revert', false);
  }
  if (op.action === 'create' && !isAddressable(op.physicalId)) {
    return context.revertFailed
      ? skip(id, 'a failed create that recorded no physical id: nothing addressable to act on', true)
      : skip(id, 'a failed create that recorded no physical id: nothing to revert', false);
  }
  if (!context.revertFailed) {
    // The journal keeps it, so the flag the plan line names can still act on it.
    return {
      kind: 'skip',
      logicalId: id,
      reason: 'failed during the deploy; cdkd rollback --revert-failed reverts it',
      warn: false,
      keep: true,
    };
  }
  if (op.action === 'create') return rollBackCreate(op, context);
  return revertInPlace(op, context, op.attempted);
}

/** A delete-first replacement that deleted the old copy, whose record state no longer holds. */
function oldGone(op: JournalOperation, context: OperationContext): boolean {
  return op.action === 'replace' && op.verdict?.oldDeleted === true && context.record === undefined;
}

const OLD_GONE = 'it is gone and no longer in state; cdkd deploy creates it again';

/** A CREATE rolled back: deleted while state still records what it made, per its DeletionPolicy. */
function rollBackCreate(op: JournalOperation, context: OperationContext): RollbackStep {
  const id = op.logicalId;
  const record = context.record;
  if (record && foundByName(op, record)) {
    return { kind: 'delete', logicalId: id, record, retain: keepsOnRollbackOfCreate(op.deletionPolicy) };
  }
  if (!isAddressable(op.physicalId)) return keep(id, unaddressable('the journaled physical id'));
  if (!record) return skip(id, 'already cleaned up: no state record is left', false);
  if (record.physicalId !== op.physicalId) {
    return skip(
      id,
      `recorded ${op.physicalId}, which is not the resource state tracks under this id; not reverted, needs manual attention`,
      true,
    );
  }
  return { kind: 'delete', logicalId: id, record, retain: keepsOnRollbackOfCreate(op.deletionPolicy) };
}

/**
 * Spec 000: a nested stack's record is exempt from the physical-id checks, since cdkd finds
 * its child by name (`{parent}/{logicalId}`), unless Cloud Control recorded it.
 */
function foundByName(op: JournalOperation, record: ResourceRecord): boolean {
  return (
    op.type === NESTED_STACK_TYPE && record.type === NESTED_STACK_TYPE && record.provisionedBy !== 'cc-api'
  );
}

/**
 * `attempted`: a failed update's journaled properties. State still holds the pre-deploy
 * record then, so only they give a patch-based provider something to diff its undo against.
 */
function revertInPlace(
  op: JournalOperation,
  context: OperationContext,
  attempted?: Record<string, unknown>,
): RollbackStep {
  const id = op.logicalId;
  const record = context.record;
  if (!record || !isAddressable(record.physicalId)) {
    return keep(id, unaddressable("its state record's physicalId"));
  }
  if (!op.before)
    return refuse(id, 'ROLLBACK_NO_BASELINE', 'the journal holds no pre-deploy record to revert to');
  return {
    kind: 'revert',
    logicalId: id,
    before: op.before,
    current: record,
    ...(attempted ? { attempted } : {}),
  };
}

function reverseReplacement(op: JournalOperation, context: OperationContext): RollbackStep {
  const id = op.logicalId;
  const before = op.before;
  if (!before)
    return refuse(id, 'ROLLBACK_NO_BASELINE', 'the journal holds no pre-deploy record to bring back');
  if (!context.knownType(before.type)) {
    return refuse(
      id,
      'ROLLBACK_REPLACEMENT_UNROUTABLE',
      `the old type ${before.type} has no provider, so the replacement cannot be reversed through it`,
    );
  }
  const keepNew = keepsResource(op.after?.updateReplacePolicy ?? op.updateReplacePolicy);
  const old = op.verdict?.oldRetained ? 'retained' : context.oldPending ? 'pending' : 'deleted';
  const record = context.record;
  if (old === 'retained') {
    if (!provesNewCopy(op, record)) return refuse(id, 'ROLLBACK_UNADDRESSABLE', readoptMessage(op, record));
  } else if (record && !isAddressable(record.physicalId)) {
    // A kept new copy is sent nothing, so its id is only reported.
    if (!keepNew) return keep(id, unaddressable("its state record's physicalId"));
  } else if (record && record.physicalId !== op.physicalId) {
    const recorded = isAddressable(op.physicalId)
      ? `recorded ${op.physicalId}, which is not the resource state tracks under this id`
      : `the journal records no usable id for the new copy, so nothing shows that ${record.physicalId} is it`;
    return skip(id, `${recorded}; not reverted, needs manual attention`, true);
  }
  const { order, mayFreeName, warnings } = reversalOrder({
    ...(op.verdict ? { verdict: op.verdict } : {}),
    journalHasVerdicts: op.verdict !== undefined,
    keepNew,
    oldPropertiesNameReplacedOrDeleted: namedIn(before.properties, context.replacedOrDeleted, id),
  });
  return {
    kind: 'reverse-replace',
    logicalId: id,
    order,
    mayFreeName,
    old,
    before,
    ...(record ? { current: newCopy(op, record) } : {}),
    keepNew,
    warnings,
    ...(old === 'deleted' && context.holdsData(before.type) ? { startsEmpty: true } : {}),
  };
}

/**
 * Re-adopting a retained old resource treats state's record as the new copy: only when
 * its id is usable and is the journal's, or the journal names none to contradict it.
 */
function provesNewCopy(op: JournalOperation, record: ResourceRecord | undefined): boolean {
  if (!record || !isAddressable(record.physicalId)) return false;
  return op.physicalId === undefined || record.physicalId === op.physicalId;
}

/** A kept new copy whose record cannot address it is reported by the journal's id, when usable. */
function newCopy(op: JournalOperation, record: ResourceRecord): ResourceRecord {
  if (isAddressable(record.physicalId) || !isAddressable(op.physicalId)) return record;
  return { ...record, physicalId: op.physicalId };
}

/** Spec 000: re-adopting a retained old resource, which only the journal names, fails instead of skipping. */
function readoptMessage(op: JournalOperation, record: ResourceRecord | undefined): string {
  const oldId = String(op.previousPhysicalId);
  const base = `the old resource ${oldId} was kept by UpdateReplacePolicy: Retain and only the journal names it`;
  const recorded = record && isAddressable(record.physicalId) ? record.physicalId : undefined;
  if (isAddressable(op.physicalId) && !recorded) {
    return `${base}; state's record of the new copy has no usable physicalId: repair the record's physicalId to ${op.physicalId} (cdkd state show) and re-run cdkd rollback; any other id stops the revert and drops the journal's only record of ${oldId}`;
  }
  if (op.physicalId === undefined) {
    return `${base}; state's record of the new copy has no usable physicalId, and the journal holds none: the re-run deletes whatever resource the repaired record names as the new copy, so name the right one; or re-run with --orphan ${op.logicalId} after noting ${oldId}`;
  }
  const conflict = isAddressable(op.physicalId)
    ? `state's record of the new copy names ${String(recorded)}, the journal ${op.physicalId}`
    : `the journal's id of the new copy (${JSON.stringify(op.physicalId)}) is unusable${recorded ? `, so nothing confirms state's ${recorded}` : ", and state's record holds no usable one either"}`;
  return `${base}; ${conflict}: nothing proves which resource is the new copy, so it is not deleted and no repair makes the re-run succeed; check both resources by hand (cdkd rollback --orphan ${op.logicalId} drops the journal's only record of ${oldId}, so note it first)`;
}

/** The other resources of the run whose old ids appear among `properties`' values. */
function namedIn(properties: unknown, ids: ReadonlyMap<string, string>, self: string): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const logicalId = ids.get(value);
      if (logicalId && logicalId !== self) found.add(logicalId);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(properties);
  return [...found].sort();
}

function unaddressable(what: string): string {
  return `${what} is absent, empty or not a string, so cdkd cannot address the resource; nothing was sent, and the journal keeps the entry. Repair the record (cdkd state show) and re-converge with cdkd deploy`;
}

/**
 * A create or replacement a killed run left in flight that reading the cloud could not settle:
 * its resource may exist, and this entry is its only record, so the journal keeps it.
 */
function inFlight(op: JournalOperation, context: OperationContext): RollbackStep {
  const where = op.name !== undefined ? ` (under the name ${op.name})` : '';
  const old = oldGone(op, context) ? `; it deleted ${String(op.previousPhysicalId)} first: ${OLD_GONE}` : '';
  return keep(
    op.logicalId,
    `was in flight when the deploy stopped, and cdkd cannot tell whether it made its resource${where}${old}; the journal keeps the entry: check by hand, then run cdkd rollback again, or pass --orphan ${op.logicalId} to drop the entry and leave whatever it made`,
  );
}

/** Passed over with a warning, the entry kept: it is the record of a resource nothing else names. */
function keep(logicalId: string, reason: string): RollbackStep {
  return { kind: 'skip', logicalId, reason, warn: true, keep: true };
}

function skip(logicalId: string, reason: string, warn: boolean): RollbackStep {
  return { kind: 'skip', logicalId, reason, warn };
}

function refuse(logicalId: string, code: ErrorCode, reason: string): RollbackStep {
  return { kind: 'refuse', logicalId, code, reason };
}
