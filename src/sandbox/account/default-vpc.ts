import { availabilityZones, stableId, type AvailabilityZone } from './regions.js';

export interface DefaultSubnet {
  subnetId: string;
  cidrBlock: string;
  zone: AvailabilityZone;
}

/** The default VPC AWS gives every account in every region, with one public subnet per zone. */
export interface DefaultVpc {
  vpcId: string;
  cidrBlock: string;
  securityGroupId: string;
  internetGatewayId: string;
  mainRouteTableId: string;
  networkAclId: string;
  dhcpOptionsId: string;
  subnets: DefaultSubnet[];
}

/** Always the same ids for the same account and region: the VPC exists before anything is made. */
export function defaultVpc(accountId: string, region: string): DefaultVpc {
  const id = (prefix: string, ...more: string[]) =>
    stableId(prefix, accountId, region, 'default-vpc', ...more);
  return {
    vpcId: id('vpc'),
    cidrBlock: '172.31.0.0/16',
    securityGroupId: id('sg'),
    internetGatewayId: id('igw'),
    mainRouteTableId: id('rtb'),
    networkAclId: id('acl'),
    dhcpOptionsId: id('dopt'),
    subnets: availabilityZones(region).map((zone, index) => ({
      subnetId: id('subnet', zone.zoneName),
      cidrBlock: `172.31.${index * 16}.0/20`,
      zone,
    })),
  };
}
