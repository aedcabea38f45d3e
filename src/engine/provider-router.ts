import type { Provider, ProviderKind } from '../providers/provider.js';

/** What the engine asks of the provider registry; the registry decides, the engine records. */
export interface ProviderRouter {
  /** The provider for a type; `recorded` keeps a resource on the family that made it. */
  providerFor(type: string, recorded?: ProviderKind): Provider;
  canHandle(type: string): boolean;
  providerCanUpdate(type: string, changedProperties: readonly string[]): boolean;
}
