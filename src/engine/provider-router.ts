import type { JsonObject, Provider, ProviderKind } from '../providers/provider.js';
import type { DecidedRoute } from '../providers/routing.js';

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

/** What the engine asks of the provider registry; the registry decides, the engine records. */
export interface ProviderRouter {
  /** The provider for a create or update, and the family to record as `provisionedBy`. */
  route(request: RouteRequest): RoutedProvider;
  /** The provider that made a recorded resource: deletes and reads follow the record. */
  providerFor(type: string, provisionedBy: ProviderKind): Provider;
  canHandle(type: string): boolean;
  providerCanUpdate(
    type: string,
    changedProperties: readonly string[],
    provisionedBy?: ProviderKind,
  ): boolean;
  /** The properties the type's SDK provider would not send; empty for a type without one. */
  uncoveredBySdk(type: string, properties: JsonObject): string[];
}
