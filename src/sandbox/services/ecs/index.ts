import type { ServiceModuleFactory } from '../../service-module.js';
import { jsonApiModule, type ApiCall } from '../api-module.js';
import { requireCluster } from './call.js';
import { clusterHandlers } from './clusters.js';
import { ServiceDeployments } from './deployments.js';
import { serviceHandlers } from './services.js';
import { tagHandlers } from './tags.js';
import { taskDefinitionHandlers } from './task-definitions.js';

/**
 * ECS over JSON 1.1: clusters, task definitions, services and their tags, kept as Cloud
 * Control's models in its store (a resource made either way is one the other reads). The
 * sandbox runs no container instance or task: lists are empty, and naming one is a MISSING
 * failure, as ECS reports an ARN it does not know.
 */
export const createEcsService: ServiceModuleFactory = async (context) => {
  const cluster = (call: ApiCall) => requireCluster(context, call);
  const missing = (arns: unknown) =>
    (Array.isArray(arns) ? arns.map(String) : []).map((arn) => ({ arn, reason: 'MISSING' }));
  const deployments = new ServiceDeployments(context);
  return jsonApiModule({
    name: 'ecs',
    version: '1.1',
    target: 'AmazonEC2ContainerServiceV20141113',
    handlers: {
      ...clusterHandlers(context, deployments),
      ...taskDefinitionHandlers(context),
      ...serviceHandlers(context, deployments),
      ...tagHandlers(context),
      ListContainerInstances: (call) => (cluster(call), { containerInstanceArns: [] }),
      ListTasks: (call) => (cluster(call), { taskArns: [] }),
      DescribeContainerInstances: (call) => (
        cluster(call),
        { containerInstances: [], failures: missing(call.input.containerInstances) }
      ),
      DescribeTasks: (call) => (cluster(call), { tasks: [], failures: missing(call.input.tasks) }),
      UpdateContainerInstancesState: (call) => (
        cluster(call),
        { containerInstances: [], failures: missing(call.input.containerInstances) }
      ),
    },
  });
};
