import type { RouteTable, Subnet, Tag, Vpc } from '@aws-sdk/client-ec2';
import { LookupError } from './provider.js';

export type SubnetType = 'Public' | 'Private' | 'Isolated';

const TYPES: readonly string[] = ['Public', 'Private', 'Isolated'];

export interface VpcShapeQuery {
  subnetGroupNameTag?: string;
  returnAsymmetricSubnets?: boolean;
}

interface ClassifiedSubnet {
  az: string;
  cidr: string;
  type: SubnetType;
  name: string;
  subnetId: string;
  routeTableId: string;
}

/** Where a subnet's traffic goes: its own route table, else the VPC's main one. */
export function routeTableFor(
  subnetId: string | undefined,
  tables: readonly RouteTable[],
): RouteTable | undefined {
  return (
    tables.find((table) => table.Associations?.some((association) => association.SubnetId === subnetId)) ??
    tables.find((table) => table.Associations?.some((association) => association.Main))
  );
}

/**
 * A subnet's type, as the CDK CLI decides it: the `aws-cdk:subnet-type` tag; else Public
 * when it maps public IPs or routes to an internet gateway; else Private when its default
 * route goes to a NAT or transit gateway; else Isolated.
 */
export function subnetType(subnet: Subnet, table: RouteTable | undefined): string {
  const tagged = tagValue('aws-cdk:subnet-type', subnet.Tags);
  if (tagged !== undefined) return tagged;
  const routes = table?.Routes ?? [];
  if (subnet.MapPublicIpOnLaunch) return 'Public';
  if (routes.some((route) => route.GatewayId?.startsWith('igw-'))) return 'Public';
  const defaultRoute = (key: 'NatGatewayId' | 'TransitGatewayId') =>
    routes.some((route) => Boolean(route[key]) && route.DestinationCidrBlock === '0.0.0.0/0');
  if (defaultRoute('NatGatewayId') || defaultRoute('TransitGatewayId')) return 'Private';
  return 'Isolated';
}

/** The value the CDK CLI caches for a VPC lookup (aws-cdk-lib's VpcContextResponse). */
export function vpcContextValue(
  vpc: Vpc,
  subnets: readonly Subnet[],
  tables: readonly RouteTable[],
  vpnGatewayId: string | undefined,
  query: VpcShapeQuery,
): Record<string, unknown> {
  const classified = subnets.map((subnet) => classify(subnet, tables, query));
  const groups = groupByTypeAndName(classified);
  const base = {
    vpcId: vpc.VpcId,
    vpcCidrBlock: vpc.CidrBlock,
    ownerAccountId: vpc.OwnerId,
    vpnGatewayId,
  };
  if (query.returnAsymmetricSubnets) {
    return {
      ...base,
      availabilityZones: [],
      subnetGroups: groups.map((group) => ({
        name: group.name,
        type: group.type,
        subnets: group.subnets.map((subnet) => ({
          subnetId: subnet.subnetId,
          cidr: subnet.cidr,
          availabilityZone: subnet.az,
          routeTableId: subnet.routeTableId,
        })),
      })),
    };
  }
  const azs = groups[0]?.subnets.map((subnet) => subnet.az) ?? [];
  for (const group of groups) {
    const groupAzs = group.subnets.map((subnet) => subnet.az);
    if (groupAzs.join() !== azs.join()) {
      throw new LookupError(`Not all subnets in VPC have the same AZs: ${groupAzs} vs ${azs}`);
    }
  }
  const of = (type: SubnetType) => groups.filter((group) => group.type === type);
  const collapse = <T>(items: T[]): T[] | undefined => (items.length > 0 ? items : undefined);
  const fields = (type: SubnetType, prefix: string) => ({
    [`${prefix}SubnetIds`]: collapse(
      of(type).flatMap((group) => group.subnets.map((subnet) => subnet.subnetId)),
    ),
    [`${prefix}SubnetNames`]: collapse(of(type).map((group) => group.name)),
    [`${prefix}SubnetRouteTableIds`]: collapse(
      of(type).flatMap((group) => group.subnets.map((subnet) => subnet.routeTableId)),
    ),
  });
  return {
    ...base,
    availabilityZones: azs,
    ...fields('Isolated', 'isolated'),
    ...fields('Private', 'private'),
    ...fields('Public', 'public'),
  };
}

function classify(subnet: Subnet, tables: readonly RouteTable[], query: VpcShapeQuery): ClassifiedSubnet {
  const table = routeTableFor(subnet.SubnetId, tables);
  const type = subnetType(subnet, table);
  if (!TYPES.includes(type)) {
    throw new LookupError(
      `Subnet ${subnet.SubnetArn} has invalid subnet type ${type} (must be Public, Private or Isolated)`,
    );
  }
  if (query.subnetGroupNameTag && !tagValue(query.subnetGroupNameTag, subnet.Tags)) {
    throw new LookupError(
      `Invalid subnetGroupNameTag: Subnet ${subnet.SubnetArn} does not have an associated tag with Key='${query.subnetGroupNameTag}'`,
    );
  }
  if (!table?.RouteTableId) {
    throw new LookupError(
      `Subnet ${subnet.SubnetArn} does not have an associated route table (and there is no "main" table)`,
    );
  }
  return {
    az: subnet.AvailabilityZone!,
    cidr: subnet.CidrBlock!,
    type: type as SubnetType,
    name: tagValue(query.subnetGroupNameTag || 'aws-cdk:subnet-name', subnet.Tags) || type,
    subnetId: subnet.SubnetId!,
    routeTableId: table.RouteTableId,
  };
}

/** Subnets grouped by type and name, each group's subnets in zone order, groups in first-seen order. */
function groupByTypeAndName(
  subnets: ClassifiedSubnet[],
): Array<{ type: SubnetType; name: string; subnets: ClassifiedSubnet[] }> {
  const groups = new Map<string, ClassifiedSubnet[]>();
  for (const subnet of subnets) {
    const key = `${subnet.type},${subnet.name}`;
    groups.set(key, [...(groups.get(key) ?? []), subnet]);
  }
  return [...groups.values()].map((members) => {
    const sorted = [...members].sort((a, b) => a.az.localeCompare(b.az));
    return { type: sorted[0]!.type, name: sorted[0]!.name, subnets: sorted };
  });
}

function tagValue(key: string, tags: Tag[] | undefined): string | undefined {
  return tags?.find((tag) => tag.Key === key)?.Value;
}
