import type { ImportMark, JournalOperation } from '../state/index.js';
import { sameId } from '../resource-types/index.js';
import { isReplacement } from './replacement-order.js';

export interface ImportMarkLine {
  /** True: the run exits 2. */
  warn: boolean;
  /** The plan line for the operation the mark passes over. */
  line: string;
}

const ADOPTED = 'adopted by cdkd import after this deploy, left as it is';
const BY_HAND = 'not reverted, check that resource by hand';

/**
 * The plan line for an operation whose logical id `cdkd import` adopted after the deploy
 * (spec 001, "Interaction with cdkd import"). None of its operations run; the line says
 * whether the import took the very resource the journal recorded.
 */
export function importMarkLine(op: JournalOperation, mark: ImportMark): ImportMarkLine {
  if (isReplacement(op)) return replacementLine(op, mark);
  // For a delete, what the operation recorded is the entry it removed.
  const recorded = op.action === 'delete' ? (op.before?.physicalId ?? op.physicalId) : op.physicalId;
  const recordedType = op.action === 'delete' ? (op.before?.type ?? op.type) : op.type;
  if (holds(mark, recordedType, recorded)) return { warn: false, line: ADOPTED };
  return differentLine(recorded);
}

/** Only a replacement's new resource counts as what it recorded. */
function replacementLine(op: JournalOperation, mark: ImportMark): ImportMarkLine {
  const oldId = op.previousPhysicalId ?? op.before?.physicalId;
  const oldType = op.previousType ?? op.before?.type ?? op.type;
  const adoptedNew = holds(mark, op.type, op.physicalId);
  const adoptedOld = !adoptedNew && holds(mark, oldType, oldId);
  if (!adoptedNew && !adoptedOld) return differentLine(op.physicalId);
  // The deploy deleted the old resource: the import adopted just what the operation recorded.
  if (adoptedNew && op.verdict?.oldDeleted && !op.verdict.oldRetained) return { warn: false, line: ADOPTED };
  // "May have been kept": no verdict (as on a failed operation) or none about the old resource.
  // An import that put the old resource back leaves the replacement running: reported the same way.
  const start = op.verdict?.oldRetained ? 'but kept it' : 'and may have kept it';
  return {
    warn: true,
    line: `replaced ${show(oldId)} ${start}, and cdkd import has since adopted ${mark.physicalId} under this id; ${BY_HAND}`,
  };
}

function differentLine(recorded: unknown): ImportMarkLine {
  return {
    warn: true,
    line: `recorded ${show(recorded)}, which cdkd import has since replaced under this id; ${BY_HAND}`,
  };
}

function holds(mark: ImportMark, type: string, physicalId: unknown): boolean {
  return mark.type === type && typeof physicalId === 'string' && sameId(type, mark.physicalId, physicalId);
}

function show(physicalId: unknown): string {
  return typeof physicalId === 'string' && physicalId !== '' ? physicalId : 'no physical id';
}
