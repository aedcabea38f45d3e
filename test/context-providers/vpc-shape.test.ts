import type { RouteTable, Subnet } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { routeTableFor, subnetType, vpcContextValue } from '../../src/context-providers/vpc-shape.js';

const table = (routes: RouteTable['Routes']): RouteTable => ({ RouteTableId: 'rtb-1', Routes: routes });

describe('subnetType: how the CDK CLI decides a looked-up subnet type', () => {
  const rows: Array<[string, Subnet, RouteTable | undefined, string]> = [
    [
      'the aws-cdk:subnet-type tag wins',
      { Tags: [{ Key: 'aws-cdk:subnet-type', Value: 'Isolated' }], MapPublicIpOnLaunch: true },
      undefined,
      'Isolated',
    ],
    ['public IPs on launch make it Public', { MapPublicIpOnLaunch: true }, table([]), 'Public'],
    [
      'a route to an internet gateway makes it Public',
      {},
      table([{ DestinationCidrBlock: '0.0.0.0/0', GatewayId: 'igw-1' }]),
      'Public',
    ],
    [
      'a default route to a NAT gateway makes it Private',
      {},
      table([{ DestinationCidrBlock: '0.0.0.0/0', NatGatewayId: 'nat-1' }]),
      'Private',
    ],
    [
      'a NAT route that is not the default route does not',
      {},
      table([{ DestinationCidrBlock: '10.9.0.0/16', NatGatewayId: 'nat-1' }]),
      'Isolated',
    ],
    [
      'a default route to a transit gateway makes it Private',
      {},
      table([{ DestinationCidrBlock: '0.0.0.0/0', TransitGatewayId: 'tgw-1' }]),
      'Private',
    ],
    [
      'only the local route makes it Isolated',
      {},
      table([{ DestinationCidrBlock: '10.0.0.0/16', GatewayId: 'local' }]),
      'Isolated',
    ],
    ['no route table at all makes it Isolated', {}, undefined, 'Isolated'],
  ];
  for (const [name, subnet, routeTable, expected] of rows) {
    it(name, () => expect(subnetType(subnet, routeTable)).toBe(expected));
  }
});

describe('routeTableFor', () => {
  const main: RouteTable = { RouteTableId: 'rtb-main', Associations: [{ Main: true }] };
  const own: RouteTable = { RouteTableId: 'rtb-own', Associations: [{ SubnetId: 'subnet-1' }] };
  it("takes the subnet's own table", () =>
    expect(routeTableFor('subnet-1', [main, own])?.RouteTableId).toBe('rtb-own'));
  it('falls back to the main table', () =>
    expect(routeTableFor('subnet-2', [main, own])?.RouteTableId).toBe('rtb-main'));
});

describe('vpcContextValue', () => {
  const vpc = { VpcId: 'vpc-1', CidrBlock: '10.0.0.0/16', OwnerId: '000000000000' };
  const tables: RouteTable[] = [
    {
      RouteTableId: 'rtb-pub',
      Associations: [{ SubnetId: 's-pub-b' }, { SubnetId: 's-pub-a' }],
      Routes: [{ GatewayId: 'igw-1', DestinationCidrBlock: '0.0.0.0/0' }],
    },
    { RouteTableId: 'rtb-main', Associations: [{ Main: true }], Routes: [] },
  ];
  const subnets: Subnet[] = [
    { SubnetId: 's-pub-b', AvailabilityZone: 'eu-west-1b', CidrBlock: '10.0.1.0/24' },
    { SubnetId: 's-pub-a', AvailabilityZone: 'eu-west-1a', CidrBlock: '10.0.0.0/24' },
    {
      SubnetId: 's-db-a',
      AvailabilityZone: 'eu-west-1a',
      CidrBlock: '10.0.2.0/24',
      Tags: [{ Key: 'aws-cdk:subnet-name', Value: 'db' }],
    },
    {
      SubnetId: 's-db-b',
      AvailabilityZone: 'eu-west-1b',
      CidrBlock: '10.0.3.0/24',
      Tags: [{ Key: 'aws-cdk:subnet-name', Value: 'db' }],
    },
  ];

  it('groups subnets by type and name, in zone order (asymmetric shape, as Vpc.fromLookup asks)', () => {
    expect(vpcContextValue(vpc, subnets, tables, 'vgw-1', { returnAsymmetricSubnets: true })).toEqual({
      vpcId: 'vpc-1',
      vpcCidrBlock: '10.0.0.0/16',
      ownerAccountId: '000000000000',
      vpnGatewayId: 'vgw-1',
      availabilityZones: [],
      subnetGroups: [
        {
          name: 'Public',
          type: 'Public',
          subnets: [
            {
              subnetId: 's-pub-a',
              cidr: '10.0.0.0/24',
              availabilityZone: 'eu-west-1a',
              routeTableId: 'rtb-pub',
            },
            {
              subnetId: 's-pub-b',
              cidr: '10.0.1.0/24',
              availabilityZone: 'eu-west-1b',
              routeTableId: 'rtb-pub',
            },
          ],
        },
        {
          name: 'db',
          type: 'Isolated',
          subnets: [
            {
              subnetId: 's-db-a',
              cidr: '10.0.2.0/24',
              availabilityZone: 'eu-west-1a',
              routeTableId: 'rtb-main',
            },
            {
              subnetId: 's-db-b',
              cidr: '10.0.3.0/24',
              availabilityZone: 'eu-west-1b',
              routeTableId: 'rtb-main',
            },
          ],
        },
      ],
    });
  });

  it('lists ids, names and route tables per type in the symmetric shape, leaving empty types out', () => {
    const value = vpcContextValue(vpc, subnets, tables, undefined, {});
    expect(value).toMatchObject({
      availabilityZones: ['eu-west-1a', 'eu-west-1b'],
      publicSubnetIds: ['s-pub-a', 's-pub-b'],
      publicSubnetNames: ['Public'],
      isolatedSubnetIds: ['s-db-a', 's-db-b'],
      isolatedSubnetNames: ['db'],
      isolatedSubnetRouteTableIds: ['rtb-main', 'rtb-main'],
    });
    expect(value.privateSubnetIds).toBeUndefined();
  });

  it('refuses groups spread over different zones in the symmetric shape', () => {
    expect(() => vpcContextValue(vpc, subnets.slice(0, 3), tables, undefined, {})).toThrow(
      /Not all subnets in VPC have the same AZs/,
    );
  });

  it('refuses a subnet without the group-name tag the query names', () => {
    expect(() =>
      vpcContextValue(vpc, subnets, tables, undefined, {
        subnetGroupNameTag: 'tier',
        returnAsymmetricSubnets: true,
      }),
    ).toThrow(/Invalid subnetGroupNameTag/);
  });
});
