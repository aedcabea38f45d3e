import { CdkdError } from '../errors.js';
import { decideNameCollision } from '../plan/index.js';
import { isCustomResourceType } from '../providers/handled-types.js';
import type { ResourceRecord } from '../state/documents/state-document.js';

/**
 * Spec 002, "Equal physical ids across a type change": between two custom resource types the
 * handler picks the id, so a new resource answering the old one's id IS the old one; deleting
 * the old copy would delete what was just created, so the replacement is refused.
 */
export function refuseEqualCustomId(
  logicalId: string,
  old: ResourceRecord,
  made: ResourceRecord,
  updateReplacePolicy: string | undefined,
): void {
  if (
    !isCustomResourceType(old.type) ||
    !isCustomResourceType(made.type) ||
    old.physicalId !== made.physicalId
  ) {
    return;
  }
  const decision = decideNameCollision({
    oldType: old.type,
    newType: made.type,
    replace: false,
    oldHoldsName: true,
    equalCustomResourceId: true,
    ...(updateReplacePolicy ? { updateReplacePolicy } : {}),
  });
  if (decision.action !== 'refuse') return;
  throw new CdkdError(
    decision.code,
    `${logicalId}: the ${made.type} handler answered the physical id ${made.physicalId} of the ${old.type} it replaces (${decision.reason}); deleting the old resource would delete the new one.`,
    {
      hint: 'Keep the old custom resource type, or make the new handler return a physical id of its own, then deploy again.',
    },
  );
}
