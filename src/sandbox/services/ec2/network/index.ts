import type { SandboxResponse } from '../../../request.js';
import type { Ec2Call } from '../call.js';
import * as aclEntry from './acl-entry-ops.js';
import * as acl from './acl-ops.js';
import * as address from './address-ops.js';
import * as endpoint from './endpoint-ops.js';
import * as gateway from './gateway-ops.js';
import * as group from './group-ops.js';
import * as nat from './nat-ops.js';
import * as route from './route-ops.js';
import * as subnet from './subnet-ops.js';
import { changeTags } from './tag-ops.js';
import * as vpc from './vpc-ops.js';

export { allRules, ruleItems } from './group-ops.js';
export { natGateways } from './nat-life.js';

/**
 * The network operations over EC2's query API: VPCs, subnets, gateways, route tables and
 * routes, addresses, NAT gateways, security groups, endpoints and network ACLs, each kept as
 * its Cloud Control model in the store Cloud Control uses.
 */
export const NETWORK_HANDLERS: Readonly<
  Record<string, (call: Ec2Call) => SandboxResponse | Promise<SandboxResponse>>
> = {
  CreateVpc: vpc.createVpc,
  DeleteVpc: vpc.deleteVpc,
  ModifyVpcAttribute: vpc.modifyVpcAttribute,
  CreateSubnet: subnet.createSubnet,
  DeleteSubnet: subnet.deleteSubnet,
  ModifySubnetAttribute: subnet.modifySubnetAttribute,
  CreateInternetGateway: gateway.createInternetGateway,
  DeleteInternetGateway: gateway.deleteInternetGateway,
  AttachInternetGateway: gateway.attachInternetGateway,
  DetachInternetGateway: gateway.detachInternetGateway,
  DescribeInternetGateways: gateway.describeInternetGateways,
  CreateRouteTable: route.createRouteTable,
  DeleteRouteTable: route.deleteRouteTable,
  CreateRoute: route.createRoute,
  ReplaceRoute: route.replaceRoute,
  DeleteRoute: route.deleteRoute,
  AssociateRouteTable: route.associateRouteTable,
  DisassociateRouteTable: route.disassociateRouteTable,
  AllocateAddress: address.allocateAddress,
  ReleaseAddress: address.releaseAddress,
  DescribeAddresses: address.describeAddresses,
  CreateNatGateway: nat.createNatGateway,
  DeleteNatGateway: nat.deleteNatGateway,
  DescribeNatGateways: nat.describeNatGateways,
  CreateSecurityGroup: group.createSecurityGroup,
  DeleteSecurityGroup: group.deleteSecurityGroup,
  DescribeSecurityGroupRules: group.describeSecurityGroupRules,
  CreateVpcEndpoint: endpoint.createVpcEndpoint,
  ModifyVpcEndpoint: endpoint.modifyVpcEndpoint,
  DeleteVpcEndpoints: endpoint.deleteVpcEndpoints,
  DescribeVpcEndpoints: endpoint.describeVpcEndpoints,
  CreateNetworkAcl: acl.createNetworkAcl,
  DeleteNetworkAcl: acl.deleteNetworkAcl,
  DescribeNetworkAcls: acl.describeNetworkAcls,
  ReplaceNetworkAclAssociation: acl.replaceNetworkAclAssociation,
  CreateNetworkAclEntry: aclEntry.createNetworkAclEntry,
  ReplaceNetworkAclEntry: aclEntry.replaceNetworkAclEntry,
  DeleteNetworkAclEntry: aclEntry.deleteNetworkAclEntry,
  CreateTags: changeTags('CreateTags'),
  DeleteTags: changeTags('DeleteTags'),
};
