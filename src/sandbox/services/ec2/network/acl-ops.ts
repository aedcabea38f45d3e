import { ec2Result, itemSet, listParam, tagSet } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import { el, optionalEl } from '../../../xml.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { filtersOf, passes } from '../filters.js';
import { NetworkView, type VpcView } from '../network.js';
import {
  ACL_ASSOCIATION,
  ACL_ENTRY,
  defaultAclKey,
  findAcl,
  networkAcls,
  type NetworkAclView,
} from './acl-view.js';
import {
  create,
  dependencyViolation,
  entries,
  handler,
  idempotent,
  KINDS,
  remove,
  required,
  returnTrue,
  specTags,
  withTags,
} from './store.js';

/** CreateNetworkAcl: an ACL of the VPC that denies everything until entries are added. */
export async function createNetworkAcl(call: Ec2Call): Promise<SandboxResponse> {
  const vpcId = required(call.params, 'VpcId');
  const network = new NetworkView(call.context.resources, call.request.accountId, call.request.region);
  if (!network.vpcs().some((vpc) => vpc.vpcId === vpcId)) throw KINDS.vpc.notFound(vpcId);
  const id = await idempotent(
    call,
    'CreateNetworkAcl',
    async () =>
      String(
        (await create(call, KINDS.acl, { VpcId: vpcId, ...withTags(specTags(call.params, 'network-acl')) }))
          .Id,
      ),
    (aclId) => entries(call, KINDS.acl).some((entry) => entry.model.Id === aclId),
  );
  const acl = findAcl(networkAcls(call), id);
  return ec2Result(
    'CreateNetworkAcl',
    [el('networkAcl', aclItem(acl, call.request.accountId))],
    call.request,
  );
}

/** DeleteNetworkAcl: a VPC's default ACL goes only with its VPC; an ACL a subnet is in stays. */
export async function deleteNetworkAcl(call: Ec2Call): Promise<SandboxResponse> {
  const networkAclId = required(call.params, 'NetworkAclId');
  const acl = findAcl(networkAcls(call), networkAclId);
  if (acl.isDefault) {
    throw ec2Errors.invalidParameterValue(`cannot delete default network ACL ${networkAclId}`);
  }
  if (acl.associations.length > 0) throw dependencyViolation('networkAcl', networkAclId);
  for (const entry of acl.entries) if (entry.stored) await remove(call, ACL_ENTRY, entry.stored);
  await remove(call, KINDS.acl.type, acl.stored!);
  return returnTrue('DeleteNetworkAcl', call);
}

/**
 * ReplaceNetworkAclAssociation: moves the subnet an association names into another ACL of
 * its VPC (its default ACL too), under a new association id, as EC2 does.
 */
export async function replaceNetworkAclAssociation(call: Ec2Call): Promise<SandboxResponse> {
  const associationId = required(call.params, 'AssociationId');
  const networkAclId = required(call.params, 'NetworkAclId');
  const acls = networkAcls(call);
  const from = acls.find((acl) => acl.associations.some((a) => a.associationId === associationId));
  if (!from) {
    throw ec2Errors.notFound(
      'InvalidAssociationID.NotFound',
      `The association ID '${associationId}' does not exist`,
    );
  }
  const current = from.associations.find((association) => association.associationId === associationId)!;
  const target = findAcl(acls, networkAclId);
  if (target.vpcId !== from.vpcId) {
    throw ec2Errors.invalidParameterValue(
      `Network ACL ${networkAclId} and subnet ${current.subnetId} belong to different networks`,
    );
  }
  const made = await handler(call, ACL_ASSOCIATION).create(
    { SubnetId: current.subnetId, NetworkAclId: networkAclId },
    call.request.region,
    call.request.accountId,
  );
  if (current.stored) await remove(call, ACL_ASSOCIATION, current.stored);
  return ec2Result(
    'ReplaceNetworkAclAssociation',
    [el('newAssociationId', String(made.model.AssociationId))],
    call.request,
  );
}

/** DescribeNetworkAcls: by id (each must exist), filters, and pages of `MaxResults` (5 to 1000). */
export function describeNetworkAcls(call: Ec2Call): SandboxResponse {
  const all = networkAcls(call);
  const ids = listParam(call.params, 'NetworkAclId');
  for (const id of ids) findAcl(all, id);
  const filters = filtersOf(call.params);
  const ownerId = call.request.accountId;
  const chosen = all.filter(
    (acl) =>
      (ids.length === 0 || ids.includes(acl.networkAclId)) &&
      passes(filters, fieldsOf(acl, ownerId), acl.tags),
  );
  const { items, nextToken } = page(call.params, chosen);
  return ec2Result(
    'DescribeNetworkAcls',
    [
      itemSet(
        'networkAclSet',
        items.map((acl) => aclItem(acl, ownerId)),
      ),
      optionalEl('nextToken', nextToken),
    ],
    call.request,
  );
}

/** What DeleteVpc takes with the VPC: its default ACL's entries and state. */
export async function forgetDefaultAcl(call: Ec2Call, vpc: VpcView): Promise<void> {
  const acl = findAcl(networkAcls(call), vpc.defaultNetworkAclId);
  for (const entry of acl.entries) if (entry.stored) await remove(call, ACL_ENTRY, entry.stored);
  const key = defaultAclKey(call, acl.networkAclId);
  if (call.ec2State.defaultAcls.get(key)) await call.ec2State.defaultAcls.delete(key);
}

function fieldsOf(acl: NetworkAclView, ownerId: string) {
  const ofEntries = (pick: (entry: NetworkAclView['entries'][number]) => unknown) =>
    acl.entries.map((entry) => {
      const value = pick(entry);
      return value === undefined ? undefined : String(value);
    });
  return {
    'network-acl-id': acl.networkAclId,
    'vpc-id': acl.vpcId,
    default: acl.isDefault,
    'owner-id': ownerId,
    'association.association-id': acl.associations.map((a) => a.associationId),
    'association.network-acl-id': acl.associations.map((a) => a.networkAclId),
    'association.subnet-id': acl.associations.map((a) => a.subnetId),
    'entry.cidr': ofEntries((entry) => entry.cidrBlock),
    'entry.ipv6-cidr': ofEntries((entry) => entry.ipv6CidrBlock),
    'entry.egress': ofEntries((entry) => entry.egress),
    'entry.protocol': ofEntries((entry) => entry.protocol),
    'entry.rule-action': ofEntries((entry) => entry.ruleAction),
    'entry.rule-number': ofEntries((entry) => entry.ruleNumber),
    'entry.port-range.from': ofEntries((entry) => entry.portRange?.from),
    'entry.port-range.to': ofEntries((entry) => entry.portRange?.to),
    'entry.icmp.code': ofEntries((entry) => entry.icmp?.code),
    'entry.icmp.type': ofEntries((entry) => entry.icmp?.type),
  };
}

/** A page of `items`: the token names the first ACL of the next page. */
function page(params: URLSearchParams, items: NetworkAclView[]) {
  const max = params.get('MaxResults');
  const token = params.get('NextToken');
  const size = max === null ? items.length : Number(max);
  if (max !== null && (!Number.isInteger(size) || size < 5 || size > 1000)) {
    throw ec2Errors.invalidParameterValue(
      `Value ( ${max} ) for parameter maxResults is invalid. Expecting a value between 5 and 1000.`,
    );
  }
  const start = token === null ? 0 : items.findIndex((acl) => acl.networkAclId === token);
  if (start < 0) throw ec2Errors.invalidParameterValue(`The token '${token}' is invalid.`);
  const next = items[start + size];
  return { items: items.slice(start, start + size), nextToken: next?.networkAclId };
}

function aclItem(acl: NetworkAclView, ownerId: string): string[] {
  return [
    el('networkAclId', acl.networkAclId),
    el('vpcId', acl.vpcId),
    el('default', acl.isDefault),
    itemSet(
      'entrySet',
      acl.entries.map((entry) => [
        el('ruleNumber', entry.ruleNumber),
        el('protocol', entry.protocol),
        el('ruleAction', entry.ruleAction),
        el('egress', entry.egress),
        optionalEl('cidrBlock', entry.cidrBlock),
        optionalEl('ipv6CidrBlock', entry.ipv6CidrBlock),
        entry.icmp &&
          el('icmpTypeCode', [optionalEl('code', entry.icmp.code), optionalEl('type', entry.icmp.type)]),
        entry.portRange &&
          el('portRange', [optionalEl('from', entry.portRange.from), optionalEl('to', entry.portRange.to)]),
      ]),
    ),
    itemSet(
      'associationSet',
      acl.associations.map((association) => [
        el('networkAclAssociationId', association.associationId),
        el('networkAclId', association.networkAclId),
        el('subnetId', association.subnetId),
      ]),
    ),
    tagSet(acl.tags),
    el('ownerId', ownerId),
  ];
}
