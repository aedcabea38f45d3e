import type { ProviderRegistry } from '../registry.js';
import { ALIAS, AliasProvider } from './alias.js';
import { KEY, KeyProvider } from './key.js';

export function registerKms(registry: ProviderRegistry): void {
  registry.registerSdk(KEY, new KeyProvider());
  registry.registerSdk(ALIAS, new AliasProvider());
}
