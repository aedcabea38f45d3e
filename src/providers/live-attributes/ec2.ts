import {
  DescribeInstancesCommand,
  DescribeNetworkAclsCommand,
  DescribeSecurityGroupsCommand,
  DescribeVpcsCommand,
  type EC2Client,
  type Instance,
} from '@aws-sdk/client-ec2';
import type { LiveAttributeAnswer, LiveAttributeRequest } from './port.js';
import type { Clock } from '../clock.js';
import { DEFAULT_DEADLINE_MS, pollDelayMs } from '../cloudcontrol/polling.js';

/** Where each instance attribute sits in DescribeInstances' answer. */
const INSTANCE_FIELDS: Readonly<Record<string, (instance: Instance) => string | undefined>> = {
  PrivateIp: (instance) => instance.PrivateIpAddress,
  PublicIp: (instance) => instance.PublicIpAddress,
  PrivateDnsName: (instance) => instance.PrivateDnsName,
  PublicDnsName: (instance) => instance.PublicDnsName,
  AvailabilityZone: (instance) => instance.Placement?.AvailabilityZone,
};

/**
 * An instance's attribute from DescribeInstances. A `pending` instance has no addresses yet:
 * with `wait`, it is polled on Cloud Control's schedule until it leaves `pending` (15-minute
 * deadline); without, it answers `pending` at once.
 */
export async function readInstanceAttribute(
  ec2: EC2Client,
  request: LiveAttributeRequest,
  options: { wait: boolean; signal?: AbortSignal; clock: Clock },
): Promise<LiveAttributeAnswer> {
  const field = INSTANCE_FIELDS[request.attribute]!;
  const deadline = options.clock.now() + DEFAULT_DEADLINE_MS;
  for (let poll = 0; ; poll++) {
    const answer = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [request.physicalId] }), {
      abortSignal: options.signal,
    });
    const instance = answer.Reservations?.flatMap((reservation) => reservation.Instances ?? [])[0];
    const state = instance?.State?.Name ?? 'not found';
    const value = instance ? field(instance) : undefined;
    if (value) return { kind: 'value', value };
    const pending = state === 'pending';
    if (!pending || !options.wait || options.clock.now() >= deadline) {
      return { kind: 'unassigned', observed: pending ? 'pending' : `${state} without one`, pending };
    }
    await options.clock.sleep(pollDelayMs(poll), options.signal);
  }
}

/** A VPC's default security group: the group named `default` in it. */
export async function readDefaultSecurityGroup(
  ec2: EC2Client,
  request: LiveAttributeRequest,
  signal?: AbortSignal,
): Promise<LiveAttributeAnswer> {
  const answer = await ec2.send(
    new DescribeSecurityGroupsCommand({
      Filters: [
        { Name: 'vpc-id', Values: [request.physicalId] },
        { Name: 'group-name', Values: ['default'] },
      ],
    }),
    { abortSignal: signal },
  );
  const groupId = answer.SecurityGroups?.[0]?.GroupId;
  return groupId
    ? { kind: 'value', value: groupId }
    : { kind: 'unassigned', observed: 'without a default security group' };
}

/**
 * A VPC's default network ACL (`DefaultNetworkAcl`) or a subnet's association with its ACL
 * (`NetworkAclAssociationId`): EC2 names neither on the VPC or subnet itself.
 */
export async function readNetworkAclAttribute(
  ec2: EC2Client,
  request: LiveAttributeRequest,
  signal?: AbortSignal,
): Promise<LiveAttributeAnswer> {
  const subnet = request.type === 'AWS::EC2::Subnet';
  const answer = await ec2.send(
    new DescribeNetworkAclsCommand({
      Filters: subnet
        ? [{ Name: 'association.subnet-id', Values: [request.physicalId] }]
        : [
            { Name: 'vpc-id', Values: [request.physicalId] },
            { Name: 'default', Values: ['true'] },
          ],
    }),
    { abortSignal: signal },
  );
  const acl = answer.NetworkAcls?.[0];
  const value = subnet
    ? acl?.Associations?.find((association) => association.SubnetId === request.physicalId)
        ?.NetworkAclAssociationId
    : acl?.NetworkAclId;
  if (value) return { kind: 'value', value };
  return {
    kind: 'unassigned',
    observed: subnet ? 'without a network ACL association' : 'without a default network ACL',
  };
}

/**
 * A VPC's associated IPv6 blocks. One still `associating` (AWS assigns the block after
 * AssociateVpcCidrBlock answers) is polled with `wait`, as an instance's addresses are.
 */
export async function readVpcIpv6Blocks(
  ec2: EC2Client,
  request: LiveAttributeRequest,
  options: { wait: boolean; signal?: AbortSignal; clock: Clock },
): Promise<LiveAttributeAnswer> {
  const deadline = options.clock.now() + DEFAULT_DEADLINE_MS;
  for (let poll = 0; ; poll++) {
    const answer = await ec2.send(new DescribeVpcsCommand({ VpcIds: [request.physicalId] }), {
      abortSignal: options.signal,
    });
    const associations = answer.Vpcs?.[0]?.Ipv6CidrBlockAssociationSet ?? [];
    const blocks = associations.flatMap((association) =>
      association.Ipv6CidrBlockState?.State === 'associated' && association.Ipv6CidrBlock
        ? [association.Ipv6CidrBlock]
        : [],
    );
    const pending = associations.some(
      (association) => association.Ipv6CidrBlockState?.State === 'associating',
    );
    // An IPv4-only VPC has no block: the empty list is its true answer, as CloudFormation's.
    if (blocks.length > 0 || !pending) return { kind: 'value', value: blocks };
    if (!options.wait || options.clock.now() >= deadline) {
      return { kind: 'unassigned', observed: 'its IPv6 block still associating', pending };
    }
    await options.clock.sleep(pollDelayMs(poll), options.signal);
  }
}

/** A security group's VPC (the default VPC's for a group declared without VpcId). */
export async function readSecurityGroupVpc(
  ec2: EC2Client,
  request: LiveAttributeRequest,
  signal?: AbortSignal,
): Promise<LiveAttributeAnswer> {
  const answer = await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [request.physicalId] }), {
    abortSignal: signal,
  });
  const vpcId = answer.SecurityGroups?.[0]?.VpcId;
  return vpcId ? { kind: 'value', value: vpcId } : { kind: 'unassigned', observed: 'in no VPC' };
}
