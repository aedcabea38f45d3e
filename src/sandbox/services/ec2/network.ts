import { defaultVpc } from '../../account/default-vpc.js';
import { availabilityZones, stableId } from '../../account/regions.js';
import type { ResourceHandlers, ResourceModel } from '../../resources.js';
import type { Tags } from './filters.js';

export interface VpcView {
  vpcId: string;
  cidrBlock: string;
  isDefault: boolean;
  defaultSecurityGroupId: string;
  /** The network ACL EC2 makes with the VPC (its Cloud Control model's `DefaultNetworkAcl`). */
  defaultNetworkAclId: string;
  /** The IPv6 blocks its `AWS::EC2::VPCCidrBlock`s associate (none for an IPv4-only VPC). */
  ipv6Blocks: Ipv6BlockView[];
  tags: Tags;
}

export interface Ipv6BlockView {
  associationId: string;
  cidrBlock: string;
}

export interface SubnetView {
  subnetId: string;
  vpcId: string;
  cidrBlock: string;
  availabilityZone: string;
  availabilityZoneId: string;
  mapPublicIpOnLaunch: boolean;
  assignIpv6AddressOnCreation: boolean;
  ipv6CidrBlock?: string;
  defaultForAz: boolean;
  /** Its association with its VPC's default network ACL, made with it (`NetworkAclAssociationId`). */
  networkAclAssociationId: string;
  tags: Tags;
}

export interface RouteView {
  destinationCidrBlock: string;
  gatewayId?: string;
  natGatewayId?: string;
  transitGatewayId?: string;
  origin: 'CreateRouteTable' | 'CreateRoute';
  /** Absent means active. */
  state?: 'blackhole';
}

export interface RouteTableView {
  routeTableId: string;
  vpcId: string;
  routes: RouteView[];
  associations: Array<{ id: string; subnetId?: string; main: boolean }>;
  tags: Tags;
}

export interface VpnGatewayView {
  vpnGatewayId: string;
  type: string;
  attachments: Array<{ vpcId: string; state: string }>;
  tags: Tags;
}

/**
 * The networks of one region as EC2 describes them: the account's default VPC, plus the
 * VPCs, subnets, route tables and gateways Cloud Control holds (read from its store on
 * every call, so EC2 and Cloud Control never disagree).
 */
export class NetworkView {
  constructor(
    private readonly resources: ResourceHandlers,
    private readonly accountId: string,
    private readonly region: string,
  ) {}

  vpcs(): VpcView[] {
    const home = defaultVpc(this.accountId, this.region);
    return [
      {
        vpcId: home.vpcId,
        cidrBlock: home.cidrBlock,
        isDefault: true,
        defaultSecurityGroupId: home.securityGroupId,
        defaultNetworkAclId: stableId('acl', this.accountId, this.region, 'default-vpc'),
        ipv6Blocks: [],
        tags: [],
      },
      ...this.models('AWS::EC2::VPC').map((model) => ({
        vpcId: String(model.VpcId),
        cidrBlock: String(model.CidrBlock ?? ''),
        isDefault: false,
        defaultSecurityGroupId: String(model.DefaultSecurityGroup),
        defaultNetworkAclId: String(model.DefaultNetworkAcl ?? stableId('acl', String(model.VpcId))),
        ipv6Blocks: ipv6BlocksOf(String(model.VpcId), this.models('AWS::EC2::VPCCidrBlock')),
        tags: tagsOf(model),
      })),
    ];
  }

  subnets(): SubnetView[] {
    const home = defaultVpc(this.accountId, this.region);
    const zones = new Map(availabilityZones(this.region).map((zone) => [zone.zoneName, zone.zoneId]));
    return [
      ...home.subnets.map((subnet) => ({
        subnetId: subnet.subnetId,
        vpcId: home.vpcId,
        cidrBlock: subnet.cidrBlock,
        availabilityZone: subnet.zone.zoneName,
        availabilityZoneId: subnet.zone.zoneId,
        mapPublicIpOnLaunch: true,
        assignIpv6AddressOnCreation: false,
        defaultForAz: true,
        networkAclAssociationId: stableId('aclassoc', subnet.subnetId),
        tags: [],
      })),
      ...this.models('AWS::EC2::Subnet').map((model) => {
        const zone = String(model.AvailabilityZone ?? `${this.region}a`);
        return {
          subnetId: String(model.SubnetId),
          vpcId: String(model.VpcId),
          cidrBlock: String(model.CidrBlock ?? ''),
          availabilityZone: zone,
          availabilityZoneId: zones.get(zone) ?? String(model.AvailabilityZoneId ?? ''),
          mapPublicIpOnLaunch: model.MapPublicIpOnLaunch === true,
          assignIpv6AddressOnCreation: model.AssignIpv6AddressOnCreation === true,
          ...(typeof model.Ipv6CidrBlock === 'string' ? { ipv6CidrBlock: model.Ipv6CidrBlock } : {}),
          defaultForAz: false,
          networkAclAssociationId: String(
            model.NetworkAclAssociationId ?? stableId('aclassoc', String(model.SubnetId)),
          ),
          tags: tagsOf(model),
        };
      }),
    ];
  }

  /** Every VPC has a main route table (CloudFormation never names it); subnets without an association use it. */
  routeTables(): RouteTableView[] {
    const home = defaultVpc(this.accountId, this.region);
    const vpcs = this.vpcs();
    const cidrOf = new Map(vpcs.map((vpc) => [vpc.vpcId, vpc.cidrBlock]));
    const local = (vpcId: string): RouteView => ({
      destinationCidrBlock: cidrOf.get(vpcId) ?? '',
      gatewayId: 'local',
      origin: 'CreateRouteTable',
    });
    const routes = this.models('AWS::EC2::Route');
    const associations = this.models('AWS::EC2::SubnetRouteTableAssociation');
    const main: RouteTableView[] = vpcs.map((vpc) => {
      const routeTableId = vpc.isDefault ? home.mainRouteTableId : stableId('rtb', vpc.vpcId, 'main');
      return {
        routeTableId,
        vpcId: vpc.vpcId,
        routes: [
          local(vpc.vpcId),
          ...(vpc.isDefault
            ? [
                {
                  destinationCidrBlock: '0.0.0.0/0',
                  gatewayId: home.internetGatewayId,
                  origin: 'CreateRoute' as const,
                },
              ]
            : []),
        ],
        associations: [{ id: stableId('rtbassoc', routeTableId, 'main'), main: true }],
        tags: [],
      };
    });
    const made = this.models('AWS::EC2::RouteTable').map((model) => {
      const routeTableId = String(model.RouteTableId);
      const vpcId = String(model.VpcId);
      return {
        routeTableId,
        vpcId,
        routes: [
          local(vpcId),
          ...routes.filter((route) => route.RouteTableId === routeTableId).map((route) => routeOf(route)),
        ],
        associations: associations
          .filter((association) => association.RouteTableId === routeTableId)
          .map((association) => ({
            id: String(association.Id),
            subnetId: String(association.SubnetId),
            main: false,
          })),
        tags: tagsOf(model),
      };
    });
    return [...main, ...made];
  }

  vpnGateways(): VpnGatewayView[] {
    const attachments = this.models('AWS::EC2::VPCGatewayAttachment');
    return this.models('AWS::EC2::VPNGateway').map((model) => {
      const vpnGatewayId = String(model.VPNGatewayId);
      return {
        vpnGatewayId,
        type: String(model.Type ?? 'ipsec.1'),
        attachments: attachments
          .filter((attachment) => attachment.VpnGatewayId === vpnGatewayId)
          .map((attachment) => ({ vpcId: String(attachment.VpcId), state: 'attached' })),
        tags: tagsOf(model),
      };
    });
  }

  /** The models Cloud Control holds for `type` in this region. */
  models(type: string): ResourceModel[] {
    return (this.resources.resolve(type)?.list(this.region, this.accountId) ?? []).map(
      (entry) => entry.model,
    );
  }
}

function routeOf(model: ResourceModel): RouteView {
  const optional = (key: string) => (typeof model[key] === 'string' ? (model[key] as string) : undefined);
  const gatewayId = optional('GatewayId');
  const natGatewayId = optional('NatGatewayId');
  const transitGatewayId = optional('TransitGatewayId');
  return {
    destinationCidrBlock: String(model.DestinationCidrBlock ?? model.DestinationIpv6CidrBlock ?? ''),
    ...(gatewayId ? { gatewayId } : {}),
    ...(natGatewayId ? { natGatewayId } : {}),
    ...(transitGatewayId ? { transitGatewayId } : {}),
    origin: 'CreateRoute',
  };
}

export function tagsOf(model: ResourceModel): Tags {
  return Array.isArray(model.Tags) ? (model.Tags as Array<{ Key: string; Value: string }>) : [];
}

/**
 * A VPC's IPv6 blocks: each IPv6 `VPCCidrBlock` of it (`cidrBlocks`: the region's models of
 * that type). EC2's DescribeVpcs and Cloud Control's read of the VPC both list these.
 */
export function ipv6BlocksOf(vpcId: string, cidrBlocks: readonly ResourceModel[]): Ipv6BlockView[] {
  return cidrBlocks.flatMap((model) => {
    const block = model.VpcId === vpcId ? ipv6BlockOf(model) : undefined;
    return block ? [block] : [];
  });
}

/**
 * The IPv6 block one `VPCCidrBlock` associates: the block it names or, for one Amazon or a
 * pool provides, a /56 fixed by its association (so every read answers the same); undefined
 * for an IPv4 block.
 */
export function ipv6BlockOf(model: ResourceModel): Ipv6BlockView | undefined {
  const named = typeof model.Ipv6CidrBlock === 'string';
  const provided =
    model.AmazonProvidedIpv6CidrBlock === true ||
    typeof model.Ipv6IpamPoolId === 'string' ||
    typeof model.Ipv6Pool === 'string';
  if (!named && !provided) return undefined;
  const associationId = String(
    model.Id ?? stableId('vpc-cidr-assoc', String(model.VpcId), JSON.stringify(model)),
  );
  const cidrBlock = named ? String(model.Ipv6CidrBlock) : amazonIpv6Block(associationId);
  return { associationId, cidrBlock };
}

/** An Amazon-provided IPv6 block, as AWS assigns and writes them: a /56 out of 2600:1f00::/24. */
function amazonIpv6Block(associationId: string): string {
  const hex = stableId('x', associationId).slice(2);
  // The /56's last byte is kept non-zero, so the block is never written with an earlier `::`.
  const lastByte = parseInt(hex.slice(6, 8), 16) || 1;
  return `2600:1f${hex.slice(0, 2)}:${parseInt(hex.slice(2, 6), 16).toString(16)}:${(lastByte << 8).toString(16)}::/56`;
}
