import type { ProviderRegistry } from '../registry.js';
import { EVENT_BUS, EventBusProvider } from './event-bus.js';
import { RULE, RuleProvider } from './rule.js';

export function registerEvents(registry: ProviderRegistry): void {
  registry.registerSdk(EVENT_BUS, new EventBusProvider());
  registry.registerSdk(RULE, new RuleProvider());
}
