import type { ProviderRegistry } from '../registry.js';
import { CLUSTER_TYPE, ClusterProvider } from './cluster.js';
import { SERVICE_TYPE, ServiceProvider } from './service.js';
import { TASK_DEFINITION_TYPE, TaskDefinitionProvider } from './task-definition.js';

/** The ECS SDK providers: clusters, task definitions and services. */
export function registerEcs(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk(CLUSTER_TYPE, new ClusterProvider())
    .registerSdk(TASK_DEFINITION_TYPE, new TaskDefinitionProvider())
    .registerSdk(SERVICE_TYPE, new ServiceProvider());
}
