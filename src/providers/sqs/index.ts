import type { ProviderRegistry } from '../registry.js';
import { QueuePolicyProvider, QUEUE_POLICY_TYPE } from './queue-policy.js';
import { QueueProvider, QUEUE_TYPE } from './queue.js';

/** The SQS SDK providers: AWS::SQS::Queue and AWS::SQS::QueuePolicy. */
export function registerSqs(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk(QUEUE_TYPE, new QueueProvider())
    .registerSdk(QUEUE_POLICY_TYPE, new QueuePolicyProvider());
}
