import type { JsonObject, Provider, ProviderKind } from '../providers/provider.js';

export interface RouteRequest {
  type: string;
  properties?: JsonObject;
  recordedProperties?: JsonObject;
  recordedBy?: ProviderKind;
}

/**
 * What the engine asks of the provider registry; the registry decides, the engine records.
 * A provider may load on first use of its type, so the answers naming one may be promises.
 */
export interface ProviderRouter {
  /** The provider for a create or update, and the family to record as `provisionedBy`. */
  route(
    request: RouteRequest,
  ):
    | { provider: Provider; provisionedBy: ProviderKind }
    | Promise<{ provider: Provider; provisionedBy: ProviderKind }>;
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
}
