import type { Verdict } from '../state/index.js';
import { isAddressable } from './addressable.js';
import { parentPrefixedIdOf, sameId } from '../resource-types/index.js';

export interface ReversalOrder {
  order: 'create-first' | 'delete-first';
  /** False: the rollback must not delete the new resource to free a name the re-create collides on. */
  mayFreeName: boolean;
  warnings: string[];
}

/**
 * The order a replacement is reversed in (spec 000, "Reversing a replacement"): the order
 * the deploy used, so a name or port only one copy can hold does not collide. Create-first
 * unless the deploy provably deleted first.
 */
export function reversalOrder(input: {
  verdict?: Verdict;
  journalHasVerdicts: boolean;
  keepNew: boolean;
  oldPropertiesNameReplacedOrDeleted: string[];
}): ReversalOrder {
  const named = input.oldPropertiesNameReplacedOrDeleted;
  if (named.length > 0) {
    // The rollback may not bring those back under the id the old properties name,
    // so deleting the new copy first could lose this resource too.
    return {
      order: 'create-first',
      mayFreeName: false,
      warnings: [
        `its old properties name ${named.join(', ')}, which the same deploy replaced or deleted; the rollback may not bring ${named.length === 1 ? 'it' : 'them'} back under the id the old properties name, so it re-creates this resource first and does not delete the new resource to free a name: if the re-create fails, the new resource is kept`,
      ],
    };
  }
  // A retained new copy is never deleted, so it cannot go first or free a name.
  if (input.keepNew) return { order: 'create-first', mayFreeName: false, warnings: [] };
  // An older cdkd's journal records no verdict: create-first.
  const deletedFirst = input.journalHasVerdicts && input.verdict?.order === 'delete-first';
  return { order: deletedFirst ? 'delete-first' : 'create-first', mayFreeName: true, warnings: [] };
}

/** The parts of a journal operation `isReplacement` reads; a `JournalOperation` fits. */
export interface ReplacementFacts {
  action: 'create' | 'update' | 'replace' | 'delete';
  type: string;
  previousType?: string;
  verdict?: Verdict;
  physicalId?: unknown;
  previousPhysicalId?: unknown;
  before?: { physicalId?: string; properties: Record<string, unknown> };
  after?: { properties: Record<string, unknown> };
  attempted?: Record<string, unknown>;
}

/**
 * What counts as a replacement is what the provider reported (spec 000): an update
 * applied in place stays in place even when its physical id changed (an SQS QueuePolicy
 * whose first queue changed). An older journal records no answer, so there a changed id
 * reads as a replacement. A Type change, and a Glue table moved to another database under
 * an equal id, are replacements whatever the provider answered.
 */
export function isReplacement(op: ReplacementFacts): boolean {
  if (op.action === 'create' || op.action === 'delete') return false;
  if (op.previousType !== undefined && op.previousType !== op.type) return true;
  if (parentMoved(op)) return true;
  if (op.verdict?.replacement !== undefined) return op.verdict.replacement;
  if (op.action === 'replace') return true;
  return physicalIdChanged(op.type, op.physicalId, op.previousPhysicalId ?? op.before?.physicalId);
}

/** A type whose id carries its parent's name is replaced when the parent changes (a Glue table's database). */
function parentMoved(op: ReplacementFacts): boolean {
  const parent = parentPrefixedIdOf(op.type)?.parentProperty;
  if (!parent) return false;
  const before = op.before?.properties[parent];
  const now = (op.after?.properties ?? op.attempted)?.[parent];
  // Compared as the service compares ids: Glue keeps database names in lower case.
  return typeof before === 'string' && typeof now === 'string' && !sameId(op.type, before, now);
}

function physicalIdChanged(type: string, now: unknown, previous: unknown): boolean {
  if (!isAddressable(now) || !isAddressable(previous)) return false;
  return !sameId(type, now, previous);
}
