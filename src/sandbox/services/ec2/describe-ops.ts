import { publicImages } from '../../account/public-images.js';
import { availabilityZones, REGIONS } from '../../account/regions.js';
import { ec2Result, itemSet, listParam } from '../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../request.js';
import { el } from '../../xml.js';
import { ec2Errors } from './ec2-errors.js';
import { filtersOf, passes } from './filters.js';
import type { Ec2Call } from './call.js';
import { NetworkView } from './network.js';
import { natGateways } from './network/index.js';
import {
  imageItem,
  routeTableItem,
  securityGroupItem,
  subnetItem,
  vpcItem,
  vpnGatewayItem,
} from './render.js';

/**
 * The named ids must all exist (EC2's `<Kind>.NotFound` names the first that does not),
 * then the filters apply.
 */
function select<T>(all: T[], idOf: (item: T) => string, ids: string[], notFound: (id: string) => Error): T[] {
  for (const id of ids) if (!all.some((item) => idOf(item) === id)) throw notFound(id);
  return ids.length === 0 ? all : all.filter((item) => ids.includes(idOf(item)));
}

function network(call: Ec2Call): NetworkView {
  return new NetworkView(call.context.resources, call.context.accountId, call.request.region);
}

export function describeAvailabilityZones(call: Ec2Call): SandboxResponse {
  const names = listParam(call.params, 'ZoneName');
  const ids = listParam(call.params, 'ZoneId');
  const filters = filtersOf(call.params);
  const zones = availabilityZones(call.request.region).filter(
    (zone) =>
      (names.length === 0 || names.includes(zone.zoneName)) &&
      (ids.length === 0 || ids.includes(zone.zoneId)) &&
      passes(filters, {
        'zone-name': zone.zoneName,
        'zone-id': zone.zoneId,
        'region-name': zone.regionName,
        state: 'available',
        'zone-type': 'availability-zone',
        'opt-in-status': 'opt-in-not-required',
        'group-name': zone.regionName,
      }),
  );
  return ec2Result(
    'DescribeAvailabilityZones',
    [
      itemSet(
        'availabilityZoneInfo',
        zones.map((zone) => [
          el('zoneName', zone.zoneName),
          el('zoneState', 'available'),
          el('regionName', zone.regionName),
          el('zoneId', zone.zoneId),
          el('zoneType', 'availability-zone'),
          el('groupName', zone.regionName),
          el('networkBorderGroup', zone.regionName),
          el('optInStatus', 'opt-in-not-required'),
          el('messageSet', []),
        ]),
      ),
    ],
    call.request,
  );
}

export function describeRegions(call: Ec2Call): SandboxResponse {
  const names = listParam(call.params, 'RegionName');
  const filters = filtersOf(call.params);
  const regions = REGIONS.filter(
    (region) =>
      (names.length === 0 || names.includes(region)) &&
      passes(filters, {
        'region-name': region,
        endpoint: `ec2.${region}.amazonaws.com`,
        'opt-in-status': 'opt-in-not-required',
      }),
  );
  return ec2Result(
    'DescribeRegions',
    [
      itemSet(
        'regionInfo',
        regions.map((region) => [
          el('regionName', region),
          el('regionEndpoint', `ec2.${region}.amazonaws.com`),
          el('optInStatus', 'opt-in-not-required'),
        ]),
      ),
    ],
    call.request,
  );
}

export function describeVpcs(call: Ec2Call): SandboxResponse {
  const filters = filtersOf(call.params);
  const vpcs = select(
    network(call).vpcs(),
    (vpc) => vpc.vpcId,
    listParam(call.params, 'VpcId'),
    (id) => ec2Errors.notFound('InvalidVpcID.NotFound', `The vpc ID '${id}' does not exist`),
  ).filter((vpc) =>
    passes(
      filters,
      {
        'vpc-id': vpc.vpcId,
        'cidr-block': vpc.cidrBlock,
        cidr: vpc.cidrBlock,
        'cidr-block-association.cidr-block': vpc.cidrBlock,
        'is-default': vpc.isDefault,
        // EC2 still accepts the older camel-case name, which aws-cdk-lib's Vpc.fromLookup sends.
        isDefault: vpc.isDefault,
        state: 'available',
        'owner-id': call.context.accountId,
        'instance-tenancy': 'default',
      },
      vpc.tags,
    ),
  );
  return ec2Result(
    'DescribeVpcs',
    [
      itemSet(
        'vpcSet',
        vpcs.map((vpc) => vpcItem(vpc, call.context.accountId, call.request.region)),
      ),
    ],
    call.request,
  );
}

export function describeSubnets(call: Ec2Call): SandboxResponse {
  const filters = filtersOf(call.params);
  const subnets = select(
    network(call).subnets(),
    (subnet) => subnet.subnetId,
    listParam(call.params, 'SubnetId'),
    (id) => ec2Errors.notFound('InvalidSubnetID.NotFound', `The subnet ID '${id}' does not exist`),
  ).filter((subnet) =>
    passes(
      filters,
      {
        'subnet-id': subnet.subnetId,
        'vpc-id': subnet.vpcId,
        'cidr-block': subnet.cidrBlock,
        cidr: subnet.cidrBlock,
        cidrBlock: subnet.cidrBlock,
        'availability-zone': subnet.availabilityZone,
        availabilityZone: subnet.availabilityZone,
        'availability-zone-id': subnet.availabilityZoneId,
        'default-for-az': subnet.defaultForAz,
        defaultForAz: subnet.defaultForAz,
        'map-public-ip-on-launch': subnet.mapPublicIpOnLaunch,
        state: 'available',
        'owner-id': call.context.accountId,
      },
      subnet.tags,
    ),
  );
  const { accountId } = call.context;
  return ec2Result(
    'DescribeSubnets',
    [
      itemSet(
        'subnetSet',
        subnets.map((subnet) => subnetItem(subnet, accountId, call.request.region)),
      ),
    ],
    call.request,
  );
}

/** A route to a NAT gateway that is not (or no longer) available is a blackhole, as EC2 reports it. */
export async function describeRouteTables(call: Ec2Call): Promise<SandboxResponse> {
  const filters = filtersOf(call.params);
  const usable = new Set(
    (await natGateways(call)).filter((gateway) => gateway.state === 'available').map((g) => g.natGatewayId),
  );
  const withStates = network(call)
    .routeTables()
    .map((table) => ({
      ...table,
      routes: table.routes.map((route) =>
        route.natGatewayId && !usable.has(route.natGatewayId)
          ? { ...route, state: 'blackhole' as const }
          : route,
      ),
    }));
  const tables = select(
    withStates,
    (table) => table.routeTableId,
    listParam(call.params, 'RouteTableId'),
    (id) => ec2Errors.notFound('InvalidRouteTableID.NotFound', `The routeTable ID '${id}' does not exist`),
  ).filter((table) =>
    passes(
      filters,
      {
        'route-table-id': table.routeTableId,
        'vpc-id': table.vpcId,
        'association.subnet-id': table.associations.map((association) => association.subnetId),
        'association.route-table-association-id': table.associations.map((association) => association.id),
        'association.main': table.associations.some((association) => association.main),
        'route.gateway-id': table.routes.map((route) => route.gatewayId),
        'route.nat-gateway-id': table.routes.map((route) => route.natGatewayId),
        'route.destination-cidr-block': table.routes.map((route) => route.destinationCidrBlock),
        'owner-id': call.context.accountId,
      },
      table.tags,
    ),
  );
  return ec2Result(
    'DescribeRouteTables',
    [
      itemSet(
        'routeTableSet',
        tables.map((table) => routeTableItem(table, call.context.accountId)),
      ),
    ],
    call.request,
  );
}

export function describeVpnGateways(call: Ec2Call): SandboxResponse {
  const filters = filtersOf(call.params);
  const gateways = select(
    network(call).vpnGateways(),
    (gateway) => gateway.vpnGatewayId,
    listParam(call.params, 'VpnGatewayId'),
    (id) =>
      ec2Errors.notFound(
        'InvalidVpnGatewayID.NotFound',
        `The virtual private gateway ID '${id}' does not exist`,
      ),
  ).filter((gateway) =>
    passes(
      filters,
      {
        'vpn-gateway-id': gateway.vpnGatewayId,
        'attachment.vpc-id': gateway.attachments.map((attachment) => attachment.vpcId),
        'attachment.state': gateway.attachments.map((attachment) => attachment.state),
        state: 'available',
        type: gateway.type,
      },
      gateway.tags,
    ),
  );
  return ec2Result(
    'DescribeVpnGateways',
    [itemSet('vpnGatewaySet', gateways.map(vpnGatewayItem))],
    call.request,
  );
}

export function describeSecurityGroups(call: Ec2Call): SandboxResponse {
  const filters = filtersOf(call.params);
  const names = listParam(call.params, 'GroupName');
  // A group name only addresses the default VPC's groups, as in EC2.
  const defaultVpcId = network(call)
    .vpcs()
    .find((vpc) => vpc.isDefault)!.vpcId;
  const all = call.securityGroups.list(call.request.region);
  for (const name of names) {
    if (!all.some((group) => group.groupName === name && group.vpcId === defaultVpcId)) {
      throw ec2Errors.notFound(
        'InvalidGroup.NotFound',
        `The security group '${name}' does not exist in default VPC '${defaultVpcId}'`,
      );
    }
  }
  const groups = select(
    all,
    (group) => group.groupId,
    listParam(call.params, 'GroupId'),
    (id) => ec2Errors.groupNotFound(id),
  ).filter(
    (group) =>
      (names.length === 0 || (names.includes(group.groupName) && group.vpcId === defaultVpcId)) &&
      passes(
        filters,
        {
          'group-id': group.groupId,
          'group-name': group.groupName,
          description: group.description,
          'vpc-id': group.vpcId,
          'owner-id': call.context.accountId,
        },
        group.tags,
      ),
  );
  return ec2Result(
    'DescribeSecurityGroups',
    [
      itemSet(
        'securityGroupInfo',
        groups.map((group) => securityGroupItem(group, call.context.accountId)),
      ),
    ],
    call.request,
  );
}

/** Owners: `amazon` (and its account ids) or `self`/the account, which has no images of its own. */
export function describeImages(call: Ec2Call): SandboxResponse {
  const owners = listParam(call.params, 'Owner');
  const filters = filtersOf(call.params);
  const ids = listParam(call.params, 'ImageId');
  const catalogue = publicImages(call.request.region);
  for (const id of ids) {
    if (!/^ami-[0-9a-f]{8,17}$/.test(id)) {
      throw ec2Errors.notFound('InvalidAMIID.Malformed', `Invalid id: "${id}" (expecting "ami-...")`);
    }
    if (!catalogue.has(id))
      throw ec2Errors.notFound('InvalidAMIID.NotFound', `The image id '[${id}]' does not exist`);
  }
  const images = [...catalogue.values()].filter(
    (image) =>
      (ids.length === 0 || ids.includes(image.imageId)) &&
      (owners.length === 0 ||
        owners.some((owner) => owner === image.ownerAlias || owner === image.ownerId)) &&
      passes(filters, {
        name: image.name,
        'image-id': image.imageId,
        architecture: image.architecture,
        state: 'available',
        'image-type': 'machine',
        'is-public': true,
        'owner-alias': image.ownerAlias,
        'owner-id': image.ownerId,
        platform: image.platform,
        'platform-details': image.platform === 'windows' ? 'Windows' : 'Linux/UNIX',
        'root-device-type': 'ebs',
        'virtualization-type': 'hvm',
        hypervisor: 'xen',
        description: image.description,
        'ena-support': true,
      }),
  );
  return ec2Result('DescribeImages', [itemSet('imagesSet', images.map(imageItem))], call.request);
}

/** AWS's own endpoint services (`com.amazonaws.<region>.<service>`), offered in every zone. */
export function describeVpcEndpointServices(call: Ec2Call): SandboxResponse {
  const region = call.request.region;
  const names = listParam(call.params, 'ServiceName');
  const prefix = `com.amazonaws.${region}.`;
  for (const name of names) {
    if (!name.startsWith(prefix) || name.length === prefix.length) {
      throw ec2Errors.notFound('InvalidServiceName', `The Vpc Endpoint Service '${name}' does not exist`);
    }
  }
  const zones = availabilityZones(region).map((zone) => zone.zoneName);
  return ec2Result(
    'DescribeVpcEndpointServices',
    [
      el(
        'serviceNameSet',
        names.map((name) => el('item', name)),
      ),
      itemSet(
        'serviceDetailSet',
        names.map((name) => [
          el('serviceName', name),
          itemSet('serviceType', [[el('serviceType', 'Interface')]]),
          el(
            'availabilityZoneSet',
            zones.map((zone) => el('item', zone)),
          ),
          el('owner', 'amazon'),
          el('baseEndpointDnsNameSet', [
            el('item', `${name.slice(prefix.length)}.${region}.vpce.amazonaws.com`),
          ]),
          el('vpcEndpointPolicySupported', true),
          el('acceptanceRequired', false),
        ]),
      ),
    ],
    call.request,
  );
}
