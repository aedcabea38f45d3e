import type { ProviderRegistry } from '../registry.js';
import { EIP_TYPE, EipProvider } from './eip.js';
import {
  GATEWAY_ATTACHMENT_TYPE,
  GatewayAttachmentProvider,
  INTERNET_GATEWAY_TYPE,
  InternetGatewayProvider,
} from './internet-gateway.js';
import { NAT_GATEWAY_TYPE, NatGatewayProvider } from './nat-gateway.js';
import { ROUTE_TYPE, RouteProvider } from './route.js';
import {
  ASSOCIATION_TYPE,
  ROUTE_TABLE_TYPE,
  RouteTableAssociationProvider,
  RouteTableProvider,
} from './route-table.js';
import { SECURITY_GROUP_TYPE, SecurityGroupProvider } from './security-group.js';
import { EGRESS_TYPE, INGRESS_TYPE, SecurityGroupRuleProvider } from './security-group-rule.js';
import { SUBNET_TYPE, SubnetProvider } from './subnet.js';
import { VPC_TYPE, VpcProvider } from './vpc.js';
import { VPC_ENDPOINT_TYPE, VpcEndpointProvider } from './vpc-endpoint.js';

/** The EC2 SDK providers: a VPC and what a CDK `ec2.Vpc` is made of, security groups and their rules, endpoints. */
export function registerEc2(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .registerSdk(VPC_TYPE, new VpcProvider())
    .registerSdk(SUBNET_TYPE, new SubnetProvider())
    .registerSdk(INTERNET_GATEWAY_TYPE, new InternetGatewayProvider())
    .registerSdk(GATEWAY_ATTACHMENT_TYPE, new GatewayAttachmentProvider())
    .registerSdk(ROUTE_TABLE_TYPE, new RouteTableProvider())
    .registerSdk(ROUTE_TYPE, new RouteProvider())
    .registerSdk(ASSOCIATION_TYPE, new RouteTableAssociationProvider())
    .registerSdk(EIP_TYPE, new EipProvider())
    .registerSdk(NAT_GATEWAY_TYPE, new NatGatewayProvider())
    .registerSdk(SECURITY_GROUP_TYPE, new SecurityGroupProvider())
    .registerSdk(INGRESS_TYPE, new SecurityGroupRuleProvider('ingress'))
    .registerSdk(EGRESS_TYPE, new SecurityGroupRuleProvider('egress'))
    .registerSdk(VPC_ENDPOINT_TYPE, new VpcEndpointProvider());
}
