import type { PublicImage } from '../../account/public-images.js';
import { itemSet, tagSet } from '../../protocols/ec2-query.js';
import { el, optionalEl } from '../../xml.js';
import type { RouteTableView, SubnetView, VpcView, VpnGatewayView } from './network.js';
import type { Rule } from './rules.js';
import type { SecurityGroupView } from './security-groups.js';

/** EC2's XML for each kind of resource, as the `<item>` children of its describe call's set. */
export function vpcItem(vpc: VpcView, ownerId: string, region: string): string[] {
  return [
    el('vpcId', vpc.vpcId),
    el('ownerId', ownerId),
    el('state', 'available'),
    el('cidrBlock', vpc.cidrBlock),
    itemSet('cidrBlockAssociationSet', [
      [
        el('associationId', `${vpc.vpcId.replace('vpc-', 'vpc-cidr-assoc-')}`),
        el('cidrBlock', vpc.cidrBlock),
        el('cidrBlockState', [el('state', 'associated')]),
      ],
    ]),
    itemSet(
      'ipv6CidrBlockAssociationSet',
      vpc.ipv6Blocks.map((block) => [
        el('associationId', block.associationId),
        el('ipv6CidrBlock', block.cidrBlock),
        el('ipv6CidrBlockState', [el('state', 'associated')]),
        el('networkBorderGroup', region),
        el('ipv6Pool', 'Amazon'),
      ]),
    ),
    el('dhcpOptionsId', 'dopt-default'),
    el('instanceTenancy', 'default'),
    el('isDefault', vpc.isDefault),
    tagSet(vpc.tags),
  ];
}

export function subnetItem(subnet: SubnetView, ownerId: string, region: string): string[] {
  return [
    el('subnetId', subnet.subnetId),
    el('subnetArn', `arn:aws:ec2:${region}:${ownerId}:subnet/${subnet.subnetId}`),
    el('state', 'available'),
    el('vpcId', subnet.vpcId),
    el('ownerId', ownerId),
    el('cidrBlock', subnet.cidrBlock),
    el('availableIpAddressCount', 251),
    el('availabilityZone', subnet.availabilityZone),
    el('availabilityZoneId', subnet.availabilityZoneId),
    el('defaultForAz', subnet.defaultForAz),
    el('mapPublicIpOnLaunch', subnet.mapPublicIpOnLaunch),
    el('assignIpv6AddressOnCreation', subnet.assignIpv6AddressOnCreation),
    itemSet(
      'ipv6CidrBlockAssociationSet',
      subnet.ipv6CidrBlock
        ? [
            [
              el('associationId', subnet.subnetId.replace('subnet-', 'subnet-cidr-assoc-')),
              el('ipv6CidrBlock', subnet.ipv6CidrBlock),
              el('ipv6CidrBlockState', [el('state', 'associated')]),
            ],
          ]
        : [],
    ),
    tagSet(subnet.tags),
  ];
}

export function routeTableItem(table: RouteTableView, ownerId: string): string[] {
  return [
    el('routeTableId', table.routeTableId),
    el('vpcId', table.vpcId),
    el('ownerId', ownerId),
    itemSet(
      'routeSet',
      table.routes.map((route) => [
        el('destinationCidrBlock', route.destinationCidrBlock),
        optionalEl('gatewayId', route.gatewayId),
        optionalEl('natGatewayId', route.natGatewayId),
        optionalEl('transitGatewayId', route.transitGatewayId),
        el('state', route.state ?? 'active'),
        el('origin', route.origin),
      ]),
    ),
    itemSet(
      'associationSet',
      table.associations.map((association) => [
        el('routeTableAssociationId', association.id),
        el('routeTableId', table.routeTableId),
        optionalEl('subnetId', association.subnetId),
        el('main', association.main),
        el('associationState', [el('state', 'associated')]),
      ]),
    ),
    tagSet(table.tags),
  ];
}

export function vpnGatewayItem(gateway: VpnGatewayView): string[] {
  return [
    el('vpnGatewayId', gateway.vpnGatewayId),
    el('state', 'available'),
    el('type', gateway.type),
    itemSet(
      'attachments',
      gateway.attachments.map((attachment) => [el('vpcId', attachment.vpcId), el('state', attachment.state)]),
    ),
    tagSet(gateway.tags),
  ];
}

export function securityGroupItem(group: SecurityGroupView, ownerId: string): string[] {
  return [
    el('ownerId', ownerId),
    el('groupId', group.groupId),
    el('groupName', group.groupName),
    el('groupDescription', group.description),
    el('vpcId', group.vpcId),
    permissions('ipPermissions', group.ingress),
    permissions('ipPermissionsEgress', group.egress),
    tagSet(group.tags),
  ];
}

/** Rules grouped back into EC2's IpPermission shape: one per protocol and port range. */
function permissions(name: string, rules: Rule[]): string {
  const groups = new Map<string, Rule[]>();
  for (const rule of rules) {
    const key = `${rule.protocol}|${rule.fromPort ?? ''}|${rule.toPort ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), rule]);
  }
  return itemSet(
    name,
    [...groups.values()].map((members) => {
      const first = members[0]!;
      const of = (kind: Rule['peer']['kind']) => members.filter((rule) => rule.peer.kind === kind);
      const description = (rule: Rule) => optionalEl('description', rule.description);
      return [
        el('ipProtocol', first.protocol),
        first.protocol === '-1' ? undefined : optionalEl('fromPort', first.fromPort),
        first.protocol === '-1' ? undefined : optionalEl('toPort', first.toPort),
        itemSet(
          'groups',
          of('group').map((rule) => [
            optionalEl('userId', rule.peer.userId),
            el('groupId', rule.peer.value),
            description(rule),
          ]),
        ),
        itemSet(
          'ipRanges',
          of('cidr').map((rule) => [el('cidrIp', rule.peer.value), description(rule)]),
        ),
        itemSet(
          'ipv6Ranges',
          of('cidr6').map((rule) => [el('cidrIpv6', rule.peer.value), description(rule)]),
        ),
        itemSet(
          'prefixListIds',
          of('prefix').map((rule) => [el('prefixListId', rule.peer.value), description(rule)]),
        ),
      ];
    }),
  );
}

export function imageItem(image: PublicImage): Array<string | undefined> {
  return [
    el('imageId', image.imageId),
    el('imageLocation', `${image.ownerAlias}/${image.name}`),
    el('imageState', 'available'),
    el('imageOwnerId', image.ownerId),
    el('creationDate', image.creationDate),
    el('isPublic', true),
    el('architecture', image.architecture),
    el('imageType', 'machine'),
    optionalEl('platform', image.platform),
    el('platformDetails', image.platform === 'windows' ? 'Windows' : 'Linux/UNIX'),
    el('imageOwnerAlias', image.ownerAlias),
    el('name', image.name),
    el('description', image.description),
    el('rootDeviceType', 'ebs'),
    el('rootDeviceName', image.platform === 'windows' ? '/dev/sda1' : '/dev/xvda'),
    el('virtualizationType', 'hvm'),
    el('hypervisor', 'xen'),
    el('enaSupport', true),
  ];
}
