import { unchangedByHash, type DesiredResource, type Plan, type RecordedResource } from '../../plan/index.js';
import {
  refuseCreateOnlyDropReplacements,
  refuseUnaddressableAutoRoutes,
  type RoutedResource,
} from '../../plan/guards/routing-refusals.js';
import { replacementOf } from '../../resource-types/index.js';
import { sdkIdIsCcIdentifier } from '../../providers/cc-identifier-compatibility.js';
import { asSent, createOnlyDrops, routeAnnotation } from '../../providers/routing.js';
import { isUnresolved } from './desired-resources.js';
import type { ProviderRouter, RoutedProvider } from '../../provider-calls/index.js';

/** Each desired resource's route this deploy, and the properties as the route will record them. */
export interface RoutedDesired {
  desired: DesiredResource[];
  routes: ReadonlyMap<string, RoutedProvider>;
}

/** The route a create, or an update of `record`, takes for these properties. */
export function routeOf(
  router: ProviderRouter,
  resource: { logicalId: string; type: string; properties: Record<string, unknown> },
  record: RecordedResource | undefined,
): RoutedProvider {
  const updating = record !== undefined && record.type === resource.type;
  return router.route({
    logicalId: resource.logicalId,
    type: resource.type,
    properties: resource.properties,
    ...(updating && {
      recordedProperties: record.properties,
      ...(record.provisionedBy !== undefined && { recordedBy: record.provisionedBy }),
    }),
  });
}

/** A resource's evaluated properties and its route. */
export interface RoutedProperties {
  /** What the route's provider is sent, and what is hashed. */
  properties: Record<string, unknown>;
  /** What is recorded (NoEcho values masked). */
  stored: Record<string, unknown>;
  route: RoutedProvider;
}

/**
 * Routes a resource whose properties the executor evaluated; what is hashed and recorded leaves
 * out what an SDK provider drops, as planning compared it (spec 002).
 */
export function routeEvaluated(
  router: ProviderRouter,
  op: { logicalId: string; type: string },
  evaluated: { properties: Record<string, unknown>; stored: Record<string, unknown> },
  recorded: RecordedResource | undefined,
): RoutedProperties {
  const route = routeOf(router, { ...op, properties: evaluated.properties }, recorded);
  return {
    properties: asSent(op.type, evaluated.properties, route.dropped),
    stored: asSent(op.type, evaluated.stored, route.dropped),
    route,
  };
}

/**
 * A `--recreate-via-*` target goes to the layer its flag names, whatever routing would choose;
 * on the SDK layer it is recorded as an ordinary SDK create is: without what its provider does
 * not send, a create-only drop kept (spec 002). Needs the type's provider loaded.
 */
export async function routeRecreate(
  router: ProviderRouter,
  type: string,
  evaluated: { properties: Record<string, unknown>; stored: Record<string, unknown> },
  layer: RoutedProvider['provisionedBy'],
): Promise<RoutedProperties> {
  const provider = await router.providerFor(type, layer);
  const dropped = layer === 'sdk' ? router.uncoveredBySdk(type, evaluated.properties) : [];
  return {
    properties: asSent(type, evaluated.properties, dropped),
    stored: asSent(type, evaluated.stored, dropped),
    route: { provider, provisionedBy: layer, ...(dropped.length > 0 && { dropped }) },
  };
}

/**
 * Routes every desired resource the plan will compare as the executor will, and plans against
 * what the route will record: a property the SDK provider drops is compared as the record will
 * hold it (spec 002). A resource whose record's hash already matches is a no-op on any route,
 * so it is left unrouted and its provider unloaded (a plan of no-ops loads none), unless its
 * record may claim a create-only drop the route must refuse.
 */
export async function routeDesired(
  router: ProviderRouter,
  desired: readonly DesiredResource[],
  recorded: Readonly<Record<string, RecordedResource>>,
): Promise<RoutedDesired> {
  const changed = desired.filter(
    (resource) =>
      !unchangedByHash(resource, recorded) || mayClaimCreateOnlyDrop(resource, recorded[resource.logicalId]),
  );
  await router.load?.(changed.map((resource) => resource.type));
  const routes = new Map<string, RoutedProvider>();
  for (const resource of changed) {
    // A reader of a resource not made yet holds a placeholder: it is routed once resolved, at its turn.
    if (isUnresolved(resource.properties)) continue;
    routes.set(resource.logicalId, routeOf(router, resource, recorded[resource.logicalId]));
  }
  const sent = desired.map((resource) => {
    const dropped = routes.get(resource.logicalId)?.dropped;
    return dropped ? routedAsSent(resource, dropped) : resource;
  });
  return { desired: sent, routes };
}

/** A desired resource as its route sends it: what an SDK provider drops is left out or, create-only, marked unsent. */
export function routedAsSent(resource: DesiredResource, dropped: readonly string[]): DesiredResource {
  const unsent = createOnlyDrops(resource.type, dropped);
  return {
    ...resource,
    properties: asSent(resource.type, resource.properties, dropped),
    ...(unsent.length > 0 && { unsent }),
  };
}

/**
 * Whether an unchanged resource's record may claim a create-only property an earlier
 * `--prefer-sdk-route` deploy left unsent (claimedCreateOnlyDrops): an `sdk` record holding a
 * create-only property. Which properties its SDK provider sends is known only once it loads.
 */
function mayClaimCreateOnlyDrop(resource: DesiredResource, record: RecordedResource | undefined): boolean {
  return (
    record?.provisionedBy === 'sdk' &&
    record.type === resource.type &&
    Object.keys(record.properties).some((property) => replacementOf(resource.type, property) === 'yes')
  );
}

/**
 * Marks each operation with the routing `cdkd diff` shows, and refuses, before anything is
 * touched, what the routing cannot deliver: an `sdk` record whose id Cloud Control may not
 * address, and a create-only drop the record claims (spec 002).
 */
export async function checkRoutes(
  plan: Plan,
  routed: RoutedDesired,
  input: {
    router: ProviderRouter;
    desired: readonly DesiredResource[];
    recorded: Readonly<Record<string, RecordedResource>>;
  },
): Promise<void> {
  const desired = new Map(input.desired.map((resource) => [resource.logicalId, resource]));
  const changing = plan.operations.filter((op) => op.phase === 'deploy' && op.kind !== 'no-op');
  // A reader planned again after its target is replaced was left unrouted with its hash unchanged.
  await input.router.load?.(changing.map((op) => op.type));
  const resources: RoutedResource[] = [];
  for (const op of plan.operations) {
    const wanted = desired.get(op.logicalId);
    if (op.phase !== 'deploy' || !wanted || isUnresolved(wanted.properties)) continue;
    const record = input.recorded[op.logicalId];
    const update =
      routed.routes.get(op.logicalId) ??
      (op.kind === 'no-op' ? undefined : routeOf(input.router, wanted, record));
    if (!update) continue;
    // A replacement creates a new resource: it is routed with no record, as its create is.
    const route = op.kind === 'replace' ? routeOf(input.router, wanted, undefined) : update;
    const annotation =
      op.kind === 'no-op'
        ? undefined
        : op.recreateVia
          ? forcedLayerAnnotation(op.recreateVia, route)
          : routeAnnotation(route, op.kind === 'replace' ? undefined : record?.provisionedBy);
    if (annotation) op.routing = annotation;
    if (!record || record.type !== op.type) continue;
    resources.push({
      logicalId: op.logicalId,
      type: op.type,
      kind: op.kind,
      recordedBy: record.provisionedBy,
      recordedProperties: record.properties,
      desiredProperties: wanted.properties,
      uncoveredRecorded: input.router.uncoveredBySdk(op.type, record.properties),
      route,
    });
  }
  refuseUnaddressableAutoRoutes(resources, sdkIdIsCcIdentifier);
  refuseCreateOnlyDropReplacements(resources);
}

/**
 * A `--recreate-via-*` target goes to the layer its flag names, whatever routing would choose:
 * the row says what that layer leaves unsent (the SDK provider's drops), never the route it skips.
 */
function forcedLayerAnnotation(layer: 'sdk' | 'cc-api', route: RoutedProvider): string | undefined {
  const dropped = route.properties ?? route.dropped ?? [];
  if (layer === 'cc-api' || dropped.length === 0) return undefined;
  return routeAnnotation({ provisionedBy: 'sdk', reason: 'prefer-sdk-route', dropped });
}
