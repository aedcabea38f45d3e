import type { ProviderRegistry } from '../registry.js';
import { SECRET, SecretProvider } from './secret.js';

export function registerSecretsManager(registry: ProviderRegistry): void {
  registry.registerSdk(SECRET, new SecretProvider());
}
