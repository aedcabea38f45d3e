import {
  buildPlan,
  checkStatefulReplacements,
  registryTypesToRead,
  type PlannedOperation,
} from '../../plan/index.js';
import { createOnlyDrops } from '../../providers/routing.js';
import type { ExecutorServices } from './executor-services.js';
import { routedResource } from './resource-evaluation.js';

/** Decides again with resolved properties: a reader of a replaced resource may now be unchanged. */
export async function replan(
  services: ExecutorServices,
  op: PlannedOperation,
): Promise<'no-op' | 'update' | 'replace'> {
  const recorded = services.state.record(op.logicalId);
  if (!recorded) return 'update';
  const { properties, route } = await routedResource(services, op, recorded);
  const unsent = createOnlyDrops(op.type, route.dropped);
  const input = {
    desired: [
      {
        logicalId: op.logicalId,
        type: op.type,
        properties,
        dependencies: [],
        ...(unsent.length > 0 && { unsent }),
      },
    ],
    recorded: { [op.logicalId]: recorded },
  };
  const registry = await services.registryAnswers?.(registryTypesToRead(input));
  const [decided] = buildPlan(input, {
    canHandle: () => true,
    providerCanUpdate: (type, changed) =>
      services.router.providerCanUpdate(type, changed, recorded.provisionedBy),
    ...(registry !== undefined && { registry }),
  }).operations;
  if (!decided || decided.kind === 'no-op') return 'no-op';
  return decided.kind === 'replace' ? 'replace' : 'update';
}

/**
 * Spec 002: a reader whose re-resolved properties now need a new resource passes the same
 * stateful-resource guard as a planned replacement. No probe runs mid-deploy, so a bucket or
 * log group counts as holding data.
 */
export function refuseStatefulReplan(services: ExecutorServices, op: PlannedOperation): void {
  const recorded = services.state.record(op.logicalId);
  if (!recorded) return;
  checkStatefulReplacements({
    operations: [{ ...op, replacedIfIdChanges: true }],
    recorded: { [op.logicalId]: recorded },
    forceStatefulRecreation: services.forceStatefulRecreation === true,
  });
}
