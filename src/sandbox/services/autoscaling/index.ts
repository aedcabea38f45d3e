import { SandboxError } from '../../errors.js';
import { queryAction, queryCodec, queryParams } from '../../protocols/query.js';
import type { ServiceModuleFactory } from '../../service-module.js';

const VERSION = '2011-01-01';

/**
 * EC2 Auto Scaling's lifecycle-hook answer over the query protocol. The sandbox launches no
 * instance, so no lifecycle action is ever waiting: completing one is the ValidationError
 * AWS answers for an action it does not hold.
 */
export const createAutoScalingService: ServiceModuleFactory = async () => ({
  name: 'autoscaling',
  codec: queryCodec,
  operation: queryAction,
  isMutating: (operation) => !/^Describe/.test(operation),
  async handle(request, operation) {
    if (operation !== 'CompleteLifecycleAction') {
      throw new SandboxError(
        'InvalidAction',
        `Could not find operation ${operation} for version ${VERSION}`,
        400,
      );
    }
    const params = queryParams(request);
    const instance = params.get('InstanceId');
    const token = params.get('LifecycleActionToken');
    throw new SandboxError(
      'ValidationError',
      instance
        ? `No active Lifecycle Action found with instance ID ${instance}`
        : `No active Lifecycle Action found with token ${token ?? ''}`,
      400,
    );
  },
  inventory: () => ({}),
});
