import type { DesiredResource, Plan, PlannedOperation } from '../../plan/index.js';
import type { ProviderContext } from '../../providers/index.js';
import type { ResourceRecord } from '../../state/index.js';
import { runLimited } from '../../assets/run-limited.js';
import { createCollisionError, lookUpName, ownHolderOf, replacementOrder, type Retry } from './name-check.js';
import { routeLoaded, type ProviderRouter } from '../../provider-calls/index.js';
import { recreateOrder } from './recreate-order.js';
import { holdsPendingValue } from './state-resolver.js';

/** A dynamic reference (`{{resolve:...}}`) is resolved only just before a value is sent. */
const DYNAMIC_REFERENCE = '{{resolve:';

/**
 * Spec 002 "Name collisions", before anything is touched: every plain create and every
 * replacement whose properties are final at planning (no reference to a resource this deploy
 * makes or replaces, no dynamic reference) looks its explicit name up now, and a taken one is
 * refused (NAMED_CREATE_COLLISION, NAMED_REPLACEMENT_COLLISION). A create found free is marked
 * on its operation; the rest are looked up by the executor just before their create.
 */
export async function checkNamesAtPlanning(input: {
  plan: Plan;
  desired: readonly DesiredResource[];
  router: ProviderRouter;
  context: ProviderContext;
  resources: Readonly<Record<string, ResourceRecord>>;
  stateName: string;
  /** The --replace flag. */
  replace: boolean;
  retry: Retry;
  concurrency: number;
}): Promise<void> {
  const desired = new Map(input.desired.map((resource) => [resource.logicalId, resource]));
  const known = input.plan.operations.filter((op) => {
    const properties = desired.get(op.logicalId)?.properties;
    return (
      (op.kind === 'create' || (op.kind === 'replace' && op.reresolveAfter.length === 0)) &&
      properties !== undefined &&
      !holdsPendingValue(properties) &&
      !JSON.stringify(properties).includes(DYNAMIC_REFERENCE) &&
      !deletesFirst(op, properties, input.resources[op.logicalId])
    );
  });
  await runLimited(known, input.concurrency, async (op) => {
    const properties = desired.get(op.logicalId)!.properties;
    const provider = op.recreateVia
      ? await input.router.providerFor(op.type, op.recreateVia)
      : (await routeLoaded(input.router, { type: op.type, properties })).provider;
    const check = await lookUpName(
      provider,
      { logicalId: op.logicalId, type: op.type, properties },
      input.context,
      input.retry,
    );
    const old = input.resources[op.logicalId];
    if (op.kind === 'replace' && old) {
      // Throws the refusal; which order an allowed replacement takes is decided when it runs.
      replacementOrder({
        logicalId: op.logicalId,
        type: op.type,
        properties,
        old,
        check,
        ...(op.updateReplacePolicy !== undefined && { updateReplacePolicy: op.updateReplacePolicy }),
        replace: input.replace,
      });
      return;
    }
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
  });
}

/** A `--recreate-via-*` that deletes the old resource first: the name it frees is its own. */
function deletesFirst(
  op: PlannedOperation,
  properties: Record<string, unknown>,
  old: ResourceRecord | undefined,
): boolean {
  if (op.kind !== 'replace' || !op.recreateVia || !old) return false;
  return (
    recreateOrder({
      type: op.type,
      desired: properties,
      recorded: old.properties,
      ...(op.updateReplacePolicy !== undefined && { updateReplacePolicy: op.updateReplacePolicy }),
      ...(op.importedBy !== undefined && { importedElsewhere: true }),
    }) === 'delete-first'
  );
}
