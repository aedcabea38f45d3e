import type { ProviderRegistry } from '../registry.js';
import { LogsFilterProvider } from './filter-family.js';
import { LOG_GROUP, LogGroupProvider } from './log-group.js';
import { METRIC_FILTER, METRIC_FILTER_DESCRIPTION } from './metric-filter.js';
import { SUBSCRIPTION_FILTER, SUBSCRIPTION_FILTER_DESCRIPTION } from './subscription-filter.js';

export function registerLogs(registry: ProviderRegistry): void {
  registry.registerSdk(LOG_GROUP, new LogGroupProvider());
  registry.registerSdk(METRIC_FILTER, new LogsFilterProvider(METRIC_FILTER_DESCRIPTION));
  registry.registerSdk(SUBSCRIPTION_FILTER, new LogsFilterProvider(SUBSCRIPTION_FILTER_DESCRIPTION));
}
