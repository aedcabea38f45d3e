import type { PlannedOperation } from './types.js';

/**
 * What of a planned operation a saved plan binds: the action, on what, with which properties
 * and why. The reason and notes are prose, and a name lookup's outcome only lets the action
 * proceed, so neither is bound.
 */
function fingerprint(op: PlannedOperation): string {
  return JSON.stringify({
    kind: op.kind,
    type: op.type,
    previousType: op.previousType ?? null,
    physicalId: op.physicalId ?? null,
    changedProperties: [...op.changedProperties].sort(),
    replacementCauses: op.replacementCauses.map((cause) => JSON.stringify(cause)).sort(),
    propertyHash: op.propertyHash ?? null,
    phase: op.phase,
    dependsOn: [...op.dependsOn].sort(),
    recreateVia: op.recreateVia ?? null,
    routing: op.routing ?? null,
  });
}

/**
 * How the operations planned now differ from the saved ones, one line per logical id
 * (empty: the same plan). Pure, so a saved plan is checked the same way everywhere.
 */
export function operationMoves(
  saved: readonly PlannedOperation[],
  current: readonly PlannedOperation[],
): string[] {
  const before = new Map(saved.map((op) => [op.logicalId, op]));
  const now = new Map(current.map((op) => [op.logicalId, op]));
  const moves: string[] = [];
  for (const id of [...new Set([...before.keys(), ...now.keys()])].sort()) {
    const was = before.get(id);
    const is = now.get(id);
    if (!is) moves.push(`${id}: planned ${was!.kind}, now not in the plan`);
    else if (!was) moves.push(`${id}: not in the saved plan, now ${is.kind}`);
    else if (was.kind !== is.kind) moves.push(`${id}: planned ${was.kind}, now ${is.kind}`);
    else if (fingerprint(was) !== fingerprint(is)) moves.push(`${id}: ${is.kind} planned with other details`);
  }
  return moves;
}
