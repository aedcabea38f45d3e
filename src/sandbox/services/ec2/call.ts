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

/** A create's `ClientToken`: the resource it made and the parameters it was made with. */
export interface ClientTokenUse {
  id: string;
  fingerprint: string;
}

/** A NAT gateway's life, which its Cloud Control model does not hold (times in sandbox ms). */
export interface NatGatewayLife {
  region: string;
  createdAt: number;
  availableAt: number;
  failure?: { code: string; message: string };
  deletedAt?: number;
  /** When its network interface is released and the gateway reads `deleted`. */
  goneAt?: number;
  /** The model as it was, for DescribeNatGateways to list the gateway as deleted for a while, as EC2 does. */
  last?: Record<string, unknown>;
}

/**
 * What a VPC's default network ACL holds that no model does (the ACL is made with its VPC,
 * so it has no model): its tags, and the default entries deleted from it (`egress/rule`).
 */
export interface DefaultAclState {
  removed: string[];
  tags: Array<{ Key: string; Value: string }>;
}

/** What EC2 keeps that no Cloud Control model holds. */
export interface Ec2State {
  /** Endpoint services' private DNS names, by `region/serviceId`. */
  privateDns: DocumentMap<PrivateDns>;
  /** Create calls' ClientTokens, by `region/account/action/token`. */
  clientTokens: DocumentMap<ClientTokenUse>;
  /** NAT gateways made through EC2, by `region/natGatewayId`. */
  natGateways: DocumentMap<NatGatewayLife>;
  /** Default network ACLs' own state, by `region/account/aclId`. */
  defaultAcls: DocumentMap<DefaultAclState>;
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
