import type { JsonObject, Provider, ProviderKind, DecidedRoute } from '../providers/index.js';

export interface RouteRequest {
  /** The resource routed; the run's `--pin-cc-api` ids are matched against it. */
  logicalId?: string;
  type: string;
  properties?: JsonObject;
  recordedProperties?: JsonObject;
  recordedBy?: ProviderKind;
}

/** A route and the provider serving it; the reason is absent for types the engine serves itself. */
export type RoutedProvider = DecidedRoute & { provider: Provider };

/**
 * What the engine asks of the provider registry; the registry decides, the engine records.
 * A provider may load on first use of its type: `route`, `providerCanUpdate` and
 * `uncoveredBySdk` need the type's provider loaded first (`load`, or `routeLoaded`).
 */
export interface ProviderRouter {
  /** The provider for a create or update, and the family to record as `provisionedBy`. */
  route(request: RouteRequest): RoutedProvider;
  /** The provider that made a recorded resource: deletes and reads follow the record. */
  providerFor(type: string, provisionedBy: ProviderKind): Provider | Promise<Provider>;
  canHandle(type: string): boolean;
  /** Loads the providers of `types`, which `providerCanUpdate` needs loaded. */
  load?(types: Iterable<string>): Promise<void>;
  /** Needs the type's provider loaded (`load`). */
  providerCanUpdate(
    type: string,
    changedProperties: readonly string[],
    provisionedBy?: ProviderKind,
  ): boolean;
  /** The properties the type's SDK provider would not send; empty for a type without one. */
  uncoveredBySdk(type: string, properties: JsonObject): string[];
  /** The type's SDK provider, whoever made a record (undefined for a type without one). */
  sdkProviderFor?(type: string): Provider | undefined | Promise<Provider | undefined>;
}

/** Routes `request` once its type's provider has loaded. */
export async function routeLoaded(router: ProviderRouter, request: RouteRequest): Promise<RoutedProvider> {
  await router.load?.([request.type]);
  return router.route(request);
}
