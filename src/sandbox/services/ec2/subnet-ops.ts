import { availabilityZones } from '../../account/regions.js';
import { ec2Result, listParam, structParams } from '../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../request.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import type { ResourceEntry, ResourceHandler, ResourceModel } from '../../resources.js';
import { el } from '../../xml.js';
import type { Ec2Call } from './call.js';
import { ec2Errors } from './ec2-errors.js';
import { NetworkView } from './network.js';
import { subnetItem } from './render.js';

const SUBNET_TYPE = 'AWS::EC2::Subnet';

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
  const tags = structParams(p, 'TagSpecification')
    .filter((spec) => spec.get('ResourceType') === 'subnet')
    .flatMap((spec) => structParams(spec, 'Tag'))
    .map((tag) => ({ Key: tag.get('Key') ?? '', Value: tag.get('Value') ?? '' }));
  const desired: ResourceModel = {
    VpcId: vpcId,
    CidrBlock: cidrBlock,
    AvailabilityZone: zone.zoneName,
    AvailabilityZoneId: zone.zoneId,
    ...(ipv6 ? { Ipv6CidrBlock: ipv6 } : {}),
    ...(tags.length > 0 ? { Tags: tags } : {}),
  };
  const made = await handler(call).create(desired, region, accountId);
  const subnet = network.subnets().find((candidate) => candidate.subnetId === made.model.SubnetId)!;
  return ec2Result('CreateSubnet', [el('subnet', subnetItem(subnet, accountId, region))], call.request);
}

export async function deleteSubnet(call: Ec2Call): Promise<SandboxResponse> {
  const { region, accountId } = call.request;
  const entry = findSubnet(call, required(call.params, 'SubnetId'));
  const subnetId = String(entry.model.SubnetId);
  const network = new NetworkView(call.context.resources, accountId, region);
  // What holds a network interface in the subnet keeps it; associations go with it, as in EC2.
  const inUse =
    call.instances.list(region, accountId).some((instance) => instance.subnetId === subnetId) ||
    network.models('AWS::EC2::NatGateway').some((gateway) => gateway.SubnetId === subnetId);
  if (inUse) {
    throw ec2Errors.notFound(
      'DependencyViolation',
      `The subnet '${subnetId}' has dependencies and cannot be deleted.`,
    );
  }
  await handler(call).delete(entry.identifier, region, accountId);
  return returnTrue('DeleteSubnet', call);
}

/** One attribute per call, as EC2 takes it: `MapPublicIpOnLaunch.Value` or `AssignIpv6AddressOnCreation.Value`. */
export async function modifySubnetAttribute(call: Ec2Call): Promise<SandboxResponse> {
  const entry = findSubnet(call, required(call.params, 'SubnetId'));
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
  await update(call, entry, { ...entry.model, ...changes });
  return returnTrue('ModifySubnetAttribute', call);
}

/** CreateTags / DeleteTags for subnets: the tags live in the subnet's model. */
export function changeTags(action: 'CreateTags' | 'DeleteTags') {
  return async (call: Ec2Call): Promise<SandboxResponse> => {
    const ids = listParam(call.params, 'ResourceId');
    if (ids.length === 0) throw ec2Errors.missingParameter('ResourceId');
    const tags = structParams(call.params, 'Tag').map((tag) => ({
      key: tag.get('Key') ?? '',
      value: tag.get('Value') ?? undefined,
    }));
    const unsupported = ids.find((id) => !id.startsWith('subnet-'));
    if (unsupported) {
      throw ec2Errors.invalidParameterValue(`The sandbox tags subnets only, not '${unsupported}'`);
    }
    const entries = ids.map((id) => findSubnet(call, id));
    for (const entry of entries) {
      const current = Array.isArray(entry.model.Tags)
        ? (entry.model.Tags as Array<{ Key: string; Value: string }>)
        : [];
      const next =
        action === 'CreateTags'
          ? [
              ...current.filter((tag) => !tags.some((t) => t.key === tag.Key)),
              ...tags.map((tag) => ({ Key: tag.key, Value: tag.value ?? '' })),
            ]
          : current.filter(
              (tag) =>
                !tags.some((t) => t.key === tag.Key && (t.value === undefined || t.value === tag.Value)),
            );
      await update(call, entry, { ...entry.model, Tags: next });
    }
    return returnTrue(action, call);
  };
}

function handler(call: Ec2Call): ResourceHandler {
  return call.context.resources.resolve(SUBNET_TYPE)!;
}

function findSubnet(call: Ec2Call, subnetId: string): ResourceEntry {
  const { region, accountId } = call.request;
  const entry = handler(call)
    .list(region, accountId)
    .find((candidate) => candidate.model.SubnetId === subnetId);
  if (!entry) {
    throw ec2Errors.notFound('InvalidSubnetID.NotFound', `The subnet ID '${subnetId}' does not exist`);
  }
  return entry;
}

/** Writes the model back through the store's update, which keeps the read-only values. */
async function update(call: Ec2Call, entry: ResourceEntry, model: ResourceModel): Promise<void> {
  const { region, accountId } = call.request;
  const writable = new Set(sandboxSchemaFor(SUBNET_TYPE)!.props);
  const desired = Object.fromEntries(Object.entries(model).filter(([key]) => writable.has(key)));
  await handler(call).update(entry.identifier, desired, region, accountId);
}

function returnTrue(action: string, call: Ec2Call): SandboxResponse {
  return ec2Result(action, [el('return', true)], call.request);
}

function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (!value) throw ec2Errors.missingParameter(name);
  return value;
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
function ipv4Block(text: string): Ipv4Block | undefined {
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
