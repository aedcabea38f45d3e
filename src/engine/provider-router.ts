import type { JsonObject, Provider, ProviderKind } from '../providers/provider.js';

export interface RouteRequest {
  type: string;
  properties?: JsonObject;
  recordedProperties?: JsonObject;
  recordedBy?: ProviderKind;
}

/** What the engine asks of the provider registry; the registry decides, the engine records. */
export interface ProviderRouter {
  /** The provider for a create or update, and the family to record as `provisionedBy`. */
  route(request: RouteRequest): { provider: Provider; provisionedBy: ProviderKind };
  /** The provider that made a recorded resource: deletes and reads follow the record. */
  providerFor(type: string, provisionedBy: ProviderKind): Provider;
  canHandle(type: string): boolean;
  providerCanUpdate(
    type: string,
    changedProperties: readonly string[],
    provisionedBy?: ProviderKind,
  ): boolean;
}
