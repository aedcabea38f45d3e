import type { ProviderRegistry } from '../registry.js';
import { LISTENER_RULE_TYPE, ListenerRuleProvider } from './listener-rule.js';
import { LISTENER_TYPE, ListenerProvider } from './listener.js';
import { LOAD_BALANCER_TYPE, LoadBalancerProvider } from './load-balancer.js';
import { TARGET_GROUP_TYPE, TargetGroupProvider } from './target-group.js';

/** The ELBv2 SDK providers: load balancers, target groups, listeners and listener rules. */
export function registerElbv2(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk(LOAD_BALANCER_TYPE, new LoadBalancerProvider())
    .registerSdk(TARGET_GROUP_TYPE, new TargetGroupProvider())
    .registerSdk(LISTENER_TYPE, new ListenerProvider())
    .registerSdk(LISTENER_RULE_TYPE, new ListenerRuleProvider());
}
