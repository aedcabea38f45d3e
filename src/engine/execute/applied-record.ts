import { propertyHash, type PlannedOperation } from '../../plan/index.js';
import type { UpdateResult } from '../../providers/index.js';
import type { ResourceRecord } from '../../state/index.js';
import { maskEchoes, maskedSecrets } from '../../stack-state/index.js';
import type { StackState } from '../../stack-state/index.js';

export interface AppliedValues {
  /** What is stored: NoEcho values masked. */
  stored: Record<string, unknown>;
  /** What was evaluated to be sent: the property hash is of these. */
  properties: Record<string, unknown>;
  provisionedBy: ResourceRecord['provisionedBy'];
}

/** The record fields a create or an update sets: what was applied and what AWS answered. */
export function appliedRecord(
  state: StackState,
  op: PlannedOperation,
  result: UpdateResult,
  { stored, properties, provisionedBy }: AppliedValues,
): Omit<ResourceRecord, 'region' | 'creationIdentity'> {
  // What AWS echoes of a NoEcho value it was sent is masked as the properties are.
  const secretsSent = maskedSecrets(properties, stored);
  return {
    type: op.type,
    physicalId: result.physicalId,
    ...(result.ref ? { ref: result.ref } : {}),
    properties: stored,
    // What this write read back; a write that read nothing leaves no stale read-back behind.
    ...(result.observed ? { observedProperties: maskEchoes(result.observed, secretsSent) } : {}),
    ...state.answered(op.logicalId, { ...result, secretsSent }),
    propertyHash: propertyHash(properties),
    provisionedBy,
    dependencies: op.dependsOn,
    ...(op.deletionPolicy ? { deletionPolicy: op.deletionPolicy } : {}),
    ...(op.updateReplacePolicy ? { updateReplacePolicy: op.updateReplacePolicy } : {}),
  };
}
