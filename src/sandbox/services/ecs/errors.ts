import { SandboxError } from '../../errors.js';

/** ECS's error codes (JSON `__type`), with the messages ECS answers. */
export const ecsErrors = {
  clusterNotFound: () => new SandboxError('ClusterNotFoundException', 'Cluster not found.', 400),
  serviceNotFound: () => new SandboxError('ServiceNotFoundException', 'Service not found.', 400),
  serviceNotActive: () => new SandboxError('ServiceNotActiveException', 'Service was not ACTIVE.', 400),
  clusterContainsServices: () =>
    new SandboxError(
      'ClusterContainsServicesException',
      'The Cluster cannot be deleted while Services are active.',
      400,
    ),
  invalidParameter: (message: string) => new SandboxError('InvalidParameterException', message, 400),
  client: (message: string) => new SandboxError('ClientException', message, 400),
};
