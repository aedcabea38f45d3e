import type { SandboxRequest } from '../../request.js';
import type { SandboxContext } from '../../service-module.js';
import type { Instances } from './instances.js';
import type { SecurityGroups } from './security-groups.js';

/** What every EC2 operation is handed. */
export interface Ec2Call {
  context: SandboxContext;
  request: SandboxRequest;
  params: URLSearchParams;
  securityGroups: SecurityGroups;
  instances: Instances;
}
