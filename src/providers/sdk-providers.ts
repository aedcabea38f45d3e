import type { ProviderRegistry } from './registry.js';

/**
 * Every SDK provider cdkd has, registered per type; types without one go
 * through Cloud Control. Each service folder adds its own registration here.
 */
export function registerSdkProviders(registry: ProviderRegistry): ProviderRegistry {
  return registry;
}
