import type { ProviderRegistry } from '../registry.js';
import { SUBNET_TYPE, SubnetProvider } from './subnet.js';

/** The EC2 SDK provider: AWS::EC2::Subnet. */
export function registerEc2(registry: ProviderRegistry): ProviderRegistry {
  return registry.registerSdk(SUBNET_TYPE, new SubnetProvider());
}
