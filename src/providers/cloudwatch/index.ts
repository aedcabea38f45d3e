import type { ProviderRegistry } from '../registry.js';
import { ALARM_TYPE, AlarmProvider } from './alarm.js';

/** The CloudWatch SDK provider: AWS::CloudWatch::Alarm. */
export function registerCloudWatch(registry: ProviderRegistry): ProviderRegistry {
  return registry.registerSdk(ALARM_TYPE, new AlarmProvider());
}
