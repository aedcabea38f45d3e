import type { DesiredResource, Plan } from '../plan/index.js';
import type { ProviderContext } from '../providers/provider.js';
import type { ResourceRecord } from '../state/documents/state-document.js';
import { createCollisionError, lookUpName, ownHolderOf } from './name-check.js';
import type { ProviderRouter } from './provider-router.js';
import { holdsPendingValue } from './state-resolver.js';

/** A dynamic reference (`{{resolve:...}}`) is resolved only just before a value is sent. */
const DYNAMIC_REFERENCE = '{{resolve:';

/**
 * Spec 002 "Creates that adopt a taken name", before anything is touched: every plain create
 * whose properties are known at planning (no reference to a resource this deploy makes, no
 * dynamic reference) looks its explicit name up now, and a taken one is refused with
 * NAMED_CREATE_COLLISION. A free answer is marked on the operation; the rest are looked up
 * by the executor just before their create.
 */
export async function checkNamedCreates(input: {
  plan: Plan;
  desired: readonly DesiredResource[];
  router: ProviderRouter;
  context: ProviderContext;
  resources: Readonly<Record<string, ResourceRecord>>;
  stateName: string;
}): Promise<void> {
  const desired = new Map(input.desired.map((resource) => [resource.logicalId, resource]));
  const creates = input.plan.operations.filter((op) => {
    const properties = desired.get(op.logicalId)?.properties;
    return (
      op.kind === 'create' &&
      properties !== undefined &&
      !holdsPendingValue(properties) &&
      !JSON.stringify(properties).includes(DYNAMIC_REFERENCE)
    );
  });
  await Promise.all(
    creates.map(async (op) => {
      const properties = desired.get(op.logicalId)!.properties;
      const { provider } = input.router.route({ type: op.type, properties });
      const check = await lookUpName(
        provider,
        { logicalId: op.logicalId, type: op.type, properties },
        input.context,
      );
      if (check.kind === 'free') op.nameFreeWhenPlanned = true;
      if (check.kind !== 'held' && check.kind !== 'failed') return;
      const ownHolder =
        check.kind === 'held' ? ownHolderOf(input.resources, op.logicalId, op.type, check.holder) : undefined;
      throw createCollisionError({
        stackName: input.stateName,
        logicalId: op.logicalId,
        type: op.type,
        check,
        ...(ownHolder !== undefined && { ownHolder }),
      });
    }),
  );
}
