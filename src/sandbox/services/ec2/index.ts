import { ec2Codec } from '../../protocols/ec2-query.js';
import { queryAction, queryParams } from '../../protocols/query.js';
import type { SandboxResponse } from '../../request.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { DocumentMap } from '../../storage/document-map.js';
import type { ClientTokenUse, DefaultAclState, Ec2Call, NatGatewayLife, PrivateDns } from './call.js';
import * as connect from './connect-endpoint-ops.js';
import * as describe from './describe-ops.js';
import { ec2Errors } from './ec2-errors.js';
import { describeInstances, runInstances, terminateInstances } from './instance-ops.js';
import { Instances } from './instances.js';
import { changeRules } from './rule-ops.js';
import { SecurityGroups } from './security-groups.js';
import { NETWORK_HANDLERS } from './network/index.js';
import * as vpcConfig from './vpc-config-ops.js';

const HANDLERS: Readonly<Record<string, (call: Ec2Call) => SandboxResponse | Promise<SandboxResponse>>> = {
  ...NETWORK_HANDLERS,
  DescribeAvailabilityZones: describe.describeAvailabilityZones,
  DescribeRegions: describe.describeRegions,
  DescribeVpcs: describe.describeVpcs,
  DescribeSubnets: describe.describeSubnets,
  DescribeRouteTables: describe.describeRouteTables,
  DescribeVpnGateways: describe.describeVpnGateways,
  DescribeSecurityGroups: describe.describeSecurityGroups,
  DescribeImages: describe.describeImages,
  DescribeInstances: describeInstances,
  RunInstances: runInstances,
  TerminateInstances: terminateInstances,
  DescribeVpcEndpointServices: describe.describeVpcEndpointServices,
  AuthorizeSecurityGroupIngress: changeRules('ingress', 'authorize'),
  AuthorizeSecurityGroupEgress: changeRules('egress', 'authorize'),
  RevokeSecurityGroupIngress: changeRules('ingress', 'revoke'),
  RevokeSecurityGroupEgress: changeRules('egress', 'revoke'),
  CreateInstanceConnectEndpoint: connect.createInstanceConnectEndpoint,
  DescribeInstanceConnectEndpoints: connect.describeInstanceConnectEndpoints,
  DeleteInstanceConnectEndpoint: connect.deleteInstanceConnectEndpoint,
  DescribeVpcAttribute: vpcConfig.describeVpcAttribute,
  DescribeVpcEndpointServiceConfigurations: vpcConfig.describeVpcEndpointServiceConfigurations,
  ModifyVpcEndpointServiceConfiguration: vpcConfig.modifyVpcEndpointServiceConfiguration,
  StartVpcEndpointServicePrivateDnsVerification: vpcConfig.startVpcEndpointServicePrivateDnsVerification,
};

/**
 * EC2 over its query protocol: what an account holds before any deploy (zones, regions,
 * the default VPC, AWS's public images) and the networks Cloud Control made, for context
 * lookups; security-group rule changes for the CDK's handlers; instances, which Cloud
 * Control's AWS::EC2::Instance shares; the network resources (network/), kept in Cloud
 * Control's store.
 */
export const createEc2Service: ServiceModuleFactory = async (context) => {
  const securityGroups = await SecurityGroups.load(context.storage, context.resources, context.accountId);
  const instances = await Instances.load(context);
  const ec2State = {
    privateDns: await DocumentMap.load<PrivateDns>(context.storage, 'ec2/private-dns'),
    clientTokens: await DocumentMap.load<ClientTokenUse>(context.storage, 'ec2/client-tokens'),
    natGateways: await DocumentMap.load<NatGatewayLife>(context.storage, 'ec2/nat-gateways'),
    defaultAcls: await DocumentMap.load<DefaultAclState>(context.storage, 'ec2/default-acls'),
  };
  const module: ServiceModule = {
    name: 'ec2',
    codec: ec2Codec,
    operation: queryAction,
    isMutating: (operation) =>
      /^(Authorize|Revoke|RunInstances|TerminateInstances|Create|Delete|Modify|Start|Attach|Detach|Associate|Disassociate|Allocate|Release|Replace)/.test(
        operation,
      ),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw ec2Errors.invalidAction(operation);
      return handler({ context, request, params: queryParams(request), securityGroups, instances, ec2State });
    },
    inventory: () => instances.inventory(),
  };
  return module;
};
