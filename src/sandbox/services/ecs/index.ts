import { SandboxError } from '../../errors.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { jsonApiModule, type ApiCall } from '../api-module.js';

const CLUSTER = 'AWS::ECS::Cluster';

/**
 * ECS's container-instance and task calls over JSON 1.1, on clusters in Cloud Control's
 * store. The sandbox runs no container instance or task: lists are empty, and naming one
 * is a MISSING failure, as ECS reports an ARN it does not know.
 */
export const createEcsService: ServiceModuleFactory = async (context) => {
  const cluster = ({ input, region, accountId }: ApiCall): string => {
    const named = String(input.cluster ?? 'default');
    const name = named.replace(/^arn:aws:ecs:[^:]+:\d{12}:cluster\//, '');
    if (!context.resources.resolve(CLUSTER)!.read(name, region, accountId)) {
      throw new SandboxError('ClusterNotFoundException', 'Cluster not found.', 400);
    }
    return name;
  };
  const missing = (arns: unknown) =>
    (Array.isArray(arns) ? arns.map(String) : []).map((arn) => ({ arn, reason: 'MISSING' }));
  return jsonApiModule({
    name: 'ecs',
    version: '1.1',
    target: 'AmazonEC2ContainerServiceV20141113',
    handlers: {
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
