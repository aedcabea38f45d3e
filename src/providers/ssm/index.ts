import type { ProviderRegistry } from '../registry.js';
import { PARAMETER, ParameterProvider } from './parameter.js';

export function registerSsm(registry: ProviderRegistry): void {
  registry.registerSdk(PARAMETER, new ParameterProvider());
}
