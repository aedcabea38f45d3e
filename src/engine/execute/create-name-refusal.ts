import type { CdkdError } from '../../errors.js';
import { propertyHash, type PlannedOperation } from '../../plan/index.js';
import type { ResourceRequest } from '../../providers/index.js';
import { createCollisionError, lookUpName, ownHolderOf, type NameCheck } from '../planning/index.js';
import type { ExecutorServices, PreparedCreate } from './executor-services.js';

/**
 * Refuses a create whose explicit name is taken (NAMED_CREATE_COLLISION); answers whether
 * the name was found free. Planning's answer stands while the properties are the planned ones.
 */
export async function refuseTakenName(
  services: ExecutorServices,
  op: PlannedOperation,
  prepared: PreparedCreate,
  request: ResourceRequest,
): Promise<boolean> {
  if (op.nameFreeWhenPlanned && propertyHash(prepared.properties) === op.propertyHash) return true;
  const check = await lookUpName(prepared.provider, request, services.context, services.retry);
  if (check.kind === 'held' || check.kind === 'failed') throw createCollision(services, op, check);
  return check.kind === 'free';
}

function createCollision(
  services: ExecutorServices,
  op: PlannedOperation,
  check: Extract<NameCheck, { kind: 'held' | 'failed' }>,
): CdkdError {
  const resources = services.state.document.resources;
  const ownHolder =
    check.kind === 'held' ? ownHolderOf(resources, op.logicalId, op.type, check.holder) : undefined;
  return createCollisionError({
    stackName: services.state.ref.stackName,
    logicalId: op.logicalId,
    type: op.type,
    check,
    ...(ownHolder !== undefined && { ownHolder }),
  });
}
