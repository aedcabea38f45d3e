import { isKnownType, primaryIdentifierOf } from '../../resource-types/index.js';
import { failedRestoreWarning, recordOnFailedRestore } from '../../plan/parent-children.js';
import type { LostChild } from './lost-children.js';
import type { PlannedOperation } from '../../plan/index.js';
import type { ExecutorServices, ReplaceHost } from './executor-services.js';

/**
 * Re-creates, without a delete, a child whose old copy went with its re-created parent
 * (spec 002); a failed restore settles the child's old record (restoreFailed).
 */
export async function restoreLostChild(
  executor: Pick<ReplaceHost, 'services' | 'create'>,
  op: PlannedOperation,
  lost: LostChild,
  release: () => void,
): Promise<void> {
  try {
    await executor.create(op, release);
  } catch (error) {
    await restoreFailed(executor.services, op.logicalId, lost);
    throw error;
  }
}

/** Whether the router has an SDK provider for the type (providerFor refuses otherwise). */
async function hasSdkProvider(services: ExecutorServices, type: string): Promise<boolean> {
  try {
    await services.router.providerFor(type, 'sdk');
    return true;
  } catch {
    return false;
  }
}

/**
 * Spec 002: a child whose restore on its re-created parent was attempted and failed may be
 * in AWS after all. Its old record comes back when a --recreate-via-* flag can write it
 * again, and is left dropped otherwise; either way a warning says what to do. A failed
 * create that recorded the resource it made has its own record and needs neither.
 */
export async function restoreFailed(
  services: ExecutorServices,
  logicalId: string,
  lost: LostChild,
): Promise<void> {
  if (services.state.record(logicalId)) return;
  const { record } = lost;
  const decision = recordOnFailedRestore({
    provisionedBy: record.provisionedBy,
    cloudControlHandles: isKnownType(record.type) && primaryIdentifierOf(record.type).length > 0,
    sdkProviderHandles: await hasSdkProvider(services, record.type),
  });
  if (decision.kind === 'keep') await services.state.setRecord(logicalId, record);
  services.events({
    kind: 'warning',
    stack: services.state.ref.stackName,
    message: failedRestoreWarning(logicalId, lost.parent, decision),
  });
}
