import { stableId } from '../../../account/regions.js';
import { ec2Result, itemSet, listParam } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import { el, optionalEl } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { filtersOf, passes } from '../filters.js';
import { NetworkView } from '../network.js';
import type { Rule } from '../rules.js';
import type { Direction, SecurityGroupView } from '../security-groups.js';
import { create, find, handler, KINDS, remove, required, returnTrue, specTags, withTags } from './store.js';

/** CreateSecurityGroup: a name is the VPC's once (InvalidGroup.Duplicate); the group starts with AWS's allow-all egress. */
export async function createSecurityGroup(call: Ec2Call): Promise<SandboxResponse> {
  const { region, accountId } = call.request;
  const groupName = required(call.params, 'GroupName');
  const description = required(call.params, 'GroupDescription');
  const network = new NetworkView(call.context.resources, accountId, region);
  const vpcId = call.params.get('VpcId') ?? network.vpcs().find((vpc) => vpc.isDefault)!.vpcId;
  if (!network.vpcs().some((vpc) => vpc.vpcId === vpcId)) throw KINDS.vpc.notFound(vpcId);
  if (groupName === 'default' || groupName.startsWith('sg-')) {
    throw ec2Errors.invalidParameterValue(
      `Value (${groupName}) for parameter GroupName is invalid. Group names may not be in the format sg-*.`,
    );
  }
  if (
    call.securityGroups.list(region).some((group) => group.vpcId === vpcId && group.groupName === groupName)
  ) {
    throw ec2Errors.notFound(
      'InvalidGroup.Duplicate',
      `The security group '${groupName}' already exists for VPC '${vpcId}'`,
    );
  }
  const tags = specTags(call.params, 'security-group');
  const model = await create(call, KINDS.sg, {
    GroupName: groupName,
    GroupDescription: description,
    VpcId: vpcId,
    ...withTags(tags),
  });
  const groupId = String(model.GroupId);
  return ec2Result(
    'CreateSecurityGroup',
    [
      el('groupId', groupId),
      el('securityGroupArn', `arn:aws:ec2:${region}:${accountId}:security-group/${groupId}`),
    ],
    call.request,
  );
}

/**
 * DeleteSecurityGroup: a VPC's default group cannot go (CannotDelete); a group another
 * group's rule or an endpoint refers to is DependencyViolation, as in EC2.
 */
export async function deleteSecurityGroup(call: Ec2Call): Promise<SandboxResponse> {
  const groupId = required(call.params, 'GroupId');
  const region = call.request.region;
  const groups = call.securityGroups.list(region);
  const group = groups.find((candidate) => candidate.groupId === groupId);
  if (!group) throw ec2Errors.groupNotFound(groupId);
  if (group.groupName === 'default') {
    throw ec2Errors.notFound(
      'CannotDelete',
      `the specified group: "${groupId}" name: "default" cannot be deleted by a user`,
    );
  }
  const referenced = groups.some(
    (other) =>
      other.groupId !== groupId &&
      [...other.ingress, ...other.egress].some(
        (rule) => rule.peer.kind === 'group' && rule.peer.value === groupId,
      ),
  );
  const network = new NetworkView(call.context.resources, call.request.accountId, region);
  const usedByEndpoint = network
    .models(KINDS.vpce.type)
    .some(
      (endpoint) => Array.isArray(endpoint.SecurityGroupIds) && endpoint.SecurityGroupIds.includes(groupId),
    );
  if (referenced || usedByEndpoint) {
    throw ec2Errors.notFound('DependencyViolation', `resource ${groupId} has a dependent object`);
  }
  // Its own separate rule resources go with it.
  for (const type of ['AWS::EC2::SecurityGroupIngress', 'AWS::EC2::SecurityGroupEgress']) {
    for (const entry of handler(call, type).list(region, call.request.accountId)) {
      if (entry.model.GroupId === groupId) await remove(call, type, entry);
    }
  }
  await remove(call, KINDS.sg.type, find(call, KINDS.sg, groupId));
  return returnTrue('DeleteSecurityGroup', call);
}

/** A rule's id: its separate resource's, else one fixed by the group, direction and rule. */
export function ruleIdOf(groupId: string, direction: Direction, rule: Rule): string {
  if (rule.id) return rule.id;
  const ports = rule.protocol === '-1' ? '' : `${rule.fromPort ?? ''}:${rule.toPort ?? ''}`;
  return stableId('sgr', groupId, direction, rule.protocol, ports, rule.peer.kind, rule.peer.value);
}

/** The `securityGroupRuleSet` items of rules, as Authorize* and DescribeSecurityGroupRules answer them. */
export function ruleItems(
  groupId: string,
  direction: Direction,
  rules: readonly Rule[],
  ownerId: string,
): Array<Array<string | undefined>> {
  return rules.map((rule) => [
    el('securityGroupRuleId', ruleIdOf(groupId, direction, rule)),
    el('groupId', groupId),
    el('groupOwnerId', ownerId),
    el('isEgress', direction === 'egress'),
    el('ipProtocol', rule.protocol),
    el('fromPort', rule.protocol === '-1' ? -1 : (rule.fromPort ?? -1)),
    el('toPort', rule.protocol === '-1' ? -1 : (rule.toPort ?? -1)),
    optionalEl('cidrIpv4', rule.peer.kind === 'cidr' ? rule.peer.value : undefined),
    optionalEl('cidrIpv6', rule.peer.kind === 'cidr6' ? rule.peer.value : undefined),
    optionalEl('prefixListId', rule.peer.kind === 'prefix' ? rule.peer.value : undefined),
    rule.peer.kind === 'group'
      ? el('referencedGroupInfo', [el('groupId', rule.peer.value), optionalEl('userId', rule.peer.userId)])
      : undefined,
    optionalEl('description', rule.description),
    itemSet('tagSet', []),
  ]);
}

/** Every rule of the region's groups with its id. */
export function allRules(
  groups: readonly SecurityGroupView[],
): Array<{ group: SecurityGroupView; direction: Direction; rule: Rule; id: string }> {
  return groups.flatMap((group) =>
    (['ingress', 'egress'] as const).flatMap((direction) =>
      group[direction].map((rule) => ({
        group,
        direction,
        rule,
        id: ruleIdOf(group.groupId, direction, rule),
      })),
    ),
  );
}

export function describeSecurityGroupRules(call: Ec2Call): SandboxResponse {
  const ids = listParam(call.params, 'SecurityGroupRuleId');
  const rules = allRules(call.securityGroups.list(call.request.region));
  for (const id of ids) {
    if (!rules.some((rule) => rule.id === id)) {
      throw ec2Errors.notFound(
        'InvalidSecurityGroupRuleId.NotFound',
        `The security group rule ID '${id}' does not exist`,
      );
    }
  }
  const filters = filtersOf(call.params);
  const shown = rules.filter(
    (entry) =>
      (ids.length === 0 || ids.includes(entry.id)) &&
      passes(filters, { 'group-id': entry.group.groupId, 'security-group-rule-id': entry.id }),
  );
  return ec2Result(
    'DescribeSecurityGroupRules',
    [
      itemSet(
        'securityGroupRuleSet',
        shown.flatMap((entry) =>
          ruleItems(entry.group.groupId, entry.direction, [entry.rule], call.request.accountId),
        ),
      ),
    ],
    call.request,
  );
}
