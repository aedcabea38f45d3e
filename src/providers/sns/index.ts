import type { ProviderRegistry } from '../registry.js';
import { SubscriptionProvider, SUBSCRIPTION_TYPE } from './subscription.js';
import { TopicPolicyProvider, TOPIC_POLICY_TYPE } from './topic-policy.js';
import { TopicProvider, TOPIC_TYPE } from './topic.js';

/** The SNS SDK providers: topics, subscriptions and topic policies. */
export function registerSns(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk(TOPIC_TYPE, new TopicProvider())
    .registerSdk(SUBSCRIPTION_TYPE, new SubscriptionProvider())
    .registerSdk(TOPIC_POLICY_TYPE, new TopicPolicyProvider());
}
