import { describe, expect, it } from 'vitest';
import { liveAttributeRoute, type LiveAttributeRoute } from '../../src/resource-types/live-attributes.js';

// Spec 002 "Fn::GetAtt attributes read live": one case per rule.
const ROWS: Array<[string, string, Record<string, unknown>, LiveAttributeRoute]> = [
  ['AWS::EC2::Instance', 'PrivateIp', {}, 'live'],
  ['AWS::EC2::Instance', 'PublicIp', {}, 'live'],
  ['AWS::EC2::Instance', 'PrivateDnsName', {}, 'live'],
  ['AWS::EC2::Instance', 'PublicDnsName', {}, 'live'],
  ['AWS::EC2::Instance', 'AvailabilityZone', {}, 'live'],
  ['AWS::EC2::Instance', 'PrivateIp', { PrivateIp: '10.0.0.5' }, 'recorded'],
  ['AWS::EC2::Instance', 'PublicIp', { PublicIp: null }, 'live'],
  // '' is a value for every attribute but a security group's VpcId.
  ['AWS::EC2::Instance', 'PublicDnsName', { PublicDnsName: '' }, 'recorded'],
  ['AWS::EC2::Instance', 'InstanceId', {}, 'recorded'],
  ['AWS::EC2::VPC', 'DefaultSecurityGroup', {}, 'live'],
  ['AWS::EC2::VPC', 'DefaultSecurityGroup', { DefaultSecurityGroup: 'sg-1' }, 'recorded'],
  ['AWS::EC2::VPC', 'CidrBlock', {}, 'recorded'],
  ['AWS::EC2::VPC', 'DefaultNetworkAcl', {}, 'live'],
  ['AWS::EC2::VPC', 'DefaultNetworkAcl', { DefaultNetworkAcl: 'acl-1' }, 'recorded'],
  ['AWS::EC2::Subnet', 'NetworkAclAssociationId', {}, 'live'],
  ['AWS::EC2::Subnet', 'NetworkAclAssociationId', { NetworkAclAssociationId: 'aclassoc-1' }, 'recorded'],
  // A VPC's IPv6 blocks come after it (its VPCCidrBlock): an empty list is read again.
  ['AWS::EC2::VPC', 'Ipv6CidrBlocks', { Ipv6CidrBlocks: [] }, 'live'],
  ['AWS::EC2::VPC', 'Ipv6CidrBlocks', { Ipv6CidrBlocks: ['2600:1f18:1:100::/56'] }, 'recorded'],
  ['AWS::EC2::Subnet', 'Ipv6CidrBlocks', { Ipv6CidrBlocks: [] }, 'recorded'],
  ['AWS::CloudFront::Distribution', 'DomainName', {}, 'live'],
  ['AWS::CloudFront::Distribution', 'DomainName', { DomainName: 'd1.cloudfront.net' }, 'recorded'],
  ['AWS::EC2::SecurityGroup', 'VpcId', {}, 'live'],
  ['AWS::EC2::SecurityGroup', 'VpcId', { VpcId: '' }, 'live'],
  ['AWS::EC2::SecurityGroup', 'VpcId', { VpcId: 'vpc-1' }, 'recorded'],
  ['AWS::EC2::SecurityGroup', 'GroupId', {}, 'recorded'],
  ['AWS::RDS::DBProxy', 'VpcId', {}, 'refuse'],
  ['AWS::RDS::DBProxy', 'VpcId', { VpcId: 'vpc-1' }, 'recorded'],
  ['AWS::RDS::DBProxyEndpoint', 'VpcId', {}, 'refuse'],
  ['AWS::RDS::DBProxyEndpoint', 'VpcId', { VpcId: 'vpc-1' }, 'recorded'],
  ['AWS::SQS::Queue', 'Arn', {}, 'recorded'],
];

describe('liveAttributeRoute', () => {
  it.each(ROWS)('%s.%s with %j → %s', (type, attribute, attributes, expected) => {
    expect(liveAttributeRoute(type, attribute, attributes)).toBe(expected);
  });
});
