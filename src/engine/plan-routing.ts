import type { DesiredResource, Plan, RecordedResource } from '../plan/index.js';
import {
  refuseCreateOnlyDropReplacements,
  refuseUnaddressableAutoRoutes,
  type RoutedResource,
} from '../plan/guards/routing-refusals.js';
import { sdkIdIsCcIdentifier } from '../providers/cc-identifier-compatibility.js';
import { asSent, routeAnnotation } from '../providers/routing.js';
import type { ProviderRouter, RoutedProvider } from './provider-router.js';

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
 * Routes every desired resource as the executor will, and plans against what the route will
 * record: a property the SDK provider drops is compared as the record will hold it (spec 002).
 */
export function routeDesired(
  router: ProviderRouter,
  desired: readonly DesiredResource[],
  recorded: Readonly<Record<string, RecordedResource>>,
): RoutedDesired {
  const routes = new Map<string, RoutedProvider>();
  const sent = desired.map((resource) => {
    const route = routeOf(router, resource, recorded[resource.logicalId]);
    routes.set(resource.logicalId, route);
    return route.dropped
      ? { ...resource, properties: asSent(resource.type, resource.properties, route.dropped) }
      : resource;
  });
  return { desired: sent, routes };
}

/**
 * Marks each operation with the routing `cdkd diff` shows, and refuses, before anything is
 * touched, what the routing cannot deliver: an `sdk` record whose id Cloud Control may not
 * address, and a create-only drop the record claims (spec 002).
 */
export function checkRoutes(
  plan: Plan,
  routed: RoutedDesired,
  input: {
    router: ProviderRouter;
    desired: readonly DesiredResource[];
    recorded: Readonly<Record<string, RecordedResource>>;
  },
): void {
  const desired = new Map(input.desired.map((resource) => [resource.logicalId, resource]));
  const resources: RoutedResource[] = [];
  for (const op of plan.operations) {
    const wanted = desired.get(op.logicalId);
    const update = routed.routes.get(op.logicalId);
    if (op.phase !== 'deploy' || !wanted || !update) continue;
    const record = input.recorded[op.logicalId];
    // A replacement creates a new resource: it is routed with no record, as its create is.
    const route = op.kind === 'replace' ? routeOf(input.router, wanted, undefined) : update;
    const annotation =
      op.kind === 'no-op'
        ? undefined
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
