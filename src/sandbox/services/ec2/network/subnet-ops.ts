import { availabilityZones } from '../../../account/regions.js';
import { ec2Result } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import { el } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { NetworkView } from '../network.js';
import { subnetItem } from '../render.js';
import { ACL_ASSOCIATION } from './acl-view.js';
import { liveNatGateways } from './nat-life.js';
import {
  create,
  entries,
  find,
  handler,
  KINDS,
  remove,
  required,
  returnTrue,
  specTags,
  update,
  withTags,
} from './store.js';

/**
 * CreateSubnet, DeleteSubnet, ModifySubnetAttribute and subnet tags over EC2's query API. A
 * subnet is kept as Cloud Control's AWS::EC2::Subnet model, in the store Cloud Control uses,
 * so a subnet made either way is one Cloud Control reads and updates by its SubnetId and one
 * DescribeSubnets lists.
 */
export async function createSubnet(call: Ec2Call): Promise<SandboxResponse> {
  const p = call.params;
  const { region, accountId } = call.request;
  const vpcId = required(p, 'VpcId');
  const cidrBlock = required(p, 'CidrBlock');
  const network = new NetworkView(call.context.resources, accountId, region);
  const vpc = network.vpcs().find((candidate) => candidate.vpcId === vpcId);
  if (!vpc) throw ec2Errors.notFound('InvalidVpcID.NotFound', `The vpc ID '${vpcId}' does not exist`);
  const block = ipv4Block(cidrBlock);
  if (!block) {
    throw ec2Errors.invalidParameterValue(
      `Value (${cidrBlock}) for parameter cidrBlock is invalid. This is not a valid CIDR block.`,
    );
  }
  const vpcBlocks = [vpc.cidrBlock, ...secondaryBlocks(network, vpcId)].flatMap(
    (text) => ipv4Block(text) ?? [],
  );
  if (block.prefix < 16 || block.prefix > 28 || !vpcBlocks.some((outer) => within(block, outer))) {
    throw ec2Errors.notFound('InvalidSubnet.Range', `The CIDR '${cidrBlock}' is invalid.`);
  }
  const overlapping = network
    .subnets()
    .some((subnet) => subnet.vpcId === vpcId && overlaps(block, ipv4Block(subnet.cidrBlock)));
  if (overlapping) {
    throw ec2Errors.notFound(
      'InvalidSubnet.Conflict',
      `The CIDR '${cidrBlock}' conflicts with another subnet`,
    );
  }
  const zone = zoneFor(region, p.get('AvailabilityZone'), p.get('AvailabilityZoneId'));
  const ipv6 = p.get('Ipv6CidrBlock');
  const desired: ResourceModel = {
    VpcId: vpcId,
    CidrBlock: cidrBlock,
    AvailabilityZone: zone.zoneName,
    AvailabilityZoneId: zone.zoneId,
    ...(ipv6 ? { Ipv6CidrBlock: ipv6 } : {}),
    ...withTags(specTags(p, 'subnet')),
  };
  const made = await create(call, KINDS.subnet, desired);
  const subnet = network.subnets().find((candidate) => candidate.subnetId === made.SubnetId)!;
  return ec2Result('CreateSubnet', [el('subnet', subnetItem(subnet, accountId, region))], call.request);
}

export async function deleteSubnet(call: Ec2Call): Promise<SandboxResponse> {
  const { region, accountId } = call.request;
  const entry = find(call, KINDS.subnet, required(call.params, 'SubnetId'));
  const subnetId = String(entry.model.SubnetId);
  // What holds a network interface in the subnet keeps it (a NAT gateway until it reads
  // deleted); associations go with it, as in EC2.
  const inUse =
    call.instances.list(region, accountId).some((instance) => instance.subnetId === subnetId) ||
    (await liveNatGateways(call)).some((gateway) => gateway.subnetId === subnetId);
  if (inUse) {
    throw ec2Errors.notFound(
      'DependencyViolation',
      `The subnet '${subnetId}' has dependencies and cannot be deleted.`,
    );
  }
  for (const association of entries(call, KINDS.rtbassoc)) {
    if (association.model.SubnetId === subnetId) await remove(call, KINDS.rtbassoc.type, association);
  }
  for (const association of handler(call, ACL_ASSOCIATION).list(region, accountId)) {
    if (association.model.SubnetId === subnetId) await remove(call, ACL_ASSOCIATION, association);
  }
  await remove(call, KINDS.subnet.type, entry);
  return returnTrue('DeleteSubnet', call);
}

/** One attribute per call, as EC2 takes it: `MapPublicIpOnLaunch.Value` or `AssignIpv6AddressOnCreation.Value`. */
export async function modifySubnetAttribute(call: Ec2Call): Promise<SandboxResponse> {
  const entry = find(call, KINDS.subnet, required(call.params, 'SubnetId'));
  const changes: ResourceModel = {};
  for (const attribute of ['MapPublicIpOnLaunch', 'AssignIpv6AddressOnCreation']) {
    const value = call.params.get(`${attribute}.Value`);
    if (value === null) continue;
    if (value !== 'true' && value !== 'false') {
      throw ec2Errors.invalidParameterValue(`Invalid value '${value}' for ${attribute}`);
    }
    changes[attribute] = value === 'true';
  }
  if (Object.keys(changes).length !== 1) {
    throw ec2Errors.invalidParameterValue('Exactly one attribute must be specified');
  }
  await update(call, KINDS.subnet.type, entry, changes);
  return returnTrue('ModifySubnetAttribute', call);
}

function secondaryBlocks(network: NetworkView, vpcId: string): string[] {
  return network
    .models('AWS::EC2::VPCCidrBlock')
    .filter((model) => model.VpcId === vpcId && typeof model.CidrBlock === 'string')
    .map((model) => String(model.CidrBlock));
}

/**
 * The zone a subnet goes in: the one named (by name or id), else the region's first, as EC2
 * picks one. A zone name the region does not list is taken as given, as Cloud Control's path
 * to the same store takes it: environment-agnostic CDK stacks name placeholder zones
 * (`dummy1a`) that the sandbox hosts; an unknown zone id is refused.
 */
function zoneFor(region: string, name: string | null, id: string | null) {
  const zones = availabilityZones(region);
  if (name && !zones.some((candidate) => candidate.zoneName === name)) {
    return { zoneName: name, zoneId: id ?? '' };
  }
  const zone = name
    ? zones.find((candidate) => candidate.zoneName === name)
    : id
      ? zones.find((candidate) => candidate.zoneId === id)
      : zones[0];
  if (!zone) {
    throw ec2Errors.invalidParameterValue(
      `Value (${id}) for parameter availabilityZoneId is invalid. Subnets can currently only be created in the following availability zones: ${zones.map((z) => z.zoneId).join(', ')}.`,
    );
  }
  if (name && id && zone.zoneId !== id) {
    throw ec2Errors.invalidParameterValue(
      `The availability zone '${name}' and availability zone id '${id}' do not match.`,
    );
  }
  return zone;
}

interface Ipv4Block {
  start: number;
  end: number;
  prefix: number;
}

/** `a.b.c.d/n` as its first and last address; undefined when malformed or not on its boundary. */
export function ipv4Block(text: string): Ipv4Block | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text.trim());
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((octet) => octet > 255) || prefix > 32) return undefined;
  const start = octets.reduce((acc, octet) => acc * 256 + octet, 0);
  const size = 2 ** (32 - prefix);
  if (start % size !== 0) return undefined;
  return { start, end: start + size - 1, prefix };
}

function within(inner: Ipv4Block, outer: Ipv4Block): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

function overlaps(a: Ipv4Block, b: Ipv4Block | undefined): boolean {
  return b !== undefined && a.start <= b.end && b.start <= a.end;
}
