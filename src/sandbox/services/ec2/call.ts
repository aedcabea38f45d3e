import type { SandboxRequest } from '../../request.js';
import type { SandboxContext } from '../../service-module.js';
import type { DocumentMap } from '../../storage/document-map.js';
import type { Instances } from './instances.js';
import type { SecurityGroups } from './security-groups.js';

/** An endpoint service's private DNS name and its verification, which its Cloud Control model does not hold. */
export interface PrivateDns {
  name: string;
  state: 'pendingVerification' | 'verified' | 'failed';
}

/** What EC2 keeps that no Cloud Control model holds. */
export interface Ec2State {
  /** Endpoint services' private DNS names, by `region/serviceId`. */
  privateDns: DocumentMap<PrivateDns>;
}

/** What every EC2 operation is handed. */
export interface Ec2Call {
  context: SandboxContext;
  request: SandboxRequest;
  params: URLSearchParams;
  securityGroups: SecurityGroups;
  instances: Instances;
  ec2State: Ec2State;
}
