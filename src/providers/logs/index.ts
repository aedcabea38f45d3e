import type { ProviderRegistry } from '../registry.js';
import { LOG_GROUP, LogGroupProvider } from './log-group.js';
import { METRIC_FILTER, MetricFilterProvider } from './metric-filter.js';
import { SUBSCRIPTION_FILTER, SubscriptionFilterProvider } from './subscription-filter.js';

export function registerLogs(registry: ProviderRegistry): void {
  registry.registerSdk(LOG_GROUP, new LogGroupProvider());
  registry.registerSdk(METRIC_FILTER, new MetricFilterProvider());
  registry.registerSdk(SUBSCRIPTION_FILTER, new SubscriptionFilterProvider());
}
