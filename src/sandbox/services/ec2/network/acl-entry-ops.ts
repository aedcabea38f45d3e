import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import {
  ACL_ENTRY,
  CATCH_ALL_RULE,
  defaultAclKey,
  defaultAclState,
  entryKey,
  findAcl,
  networkAcls,
  type AclEntryView,
  type NetworkAclView,
} from './acl-view.js';
import { handler, remove, required, returnTrue } from './store.js';
import { ipv4Block } from './subnet-ops.js';

/** CreateNetworkAclEntry: one entry per direction and rule number (NetworkAclEntryAlreadyExists). */
export async function createNetworkAclEntry(call: Ec2Call): Promise<SandboxResponse> {
  const { acl, desired, egress, ruleNumber } = entryRequest(call, true);
  if (visible(acl, egress, ruleNumber)) {
    throw ec2Errors.notFound(
      'NetworkAclEntryAlreadyExists',
      `The network acl entry identified by ${ruleNumber} already exists.`,
    );
  }
  await store(call, desired);
  return returnTrue('CreateNetworkAclEntry', call);
}

/** ReplaceNetworkAclEntry: the entry must exist (a default ACL's own entries too). */
export async function replaceNetworkAclEntry(call: Ec2Call): Promise<SandboxResponse> {
  const { acl, desired, egress, ruleNumber } = entryRequest(call, true);
  const existing = visible(acl, egress, ruleNumber) ?? missing(ruleNumber);
  if (existing.stored) await remove(call, ACL_ENTRY, existing.stored);
  await store(call, desired);
  return returnTrue('ReplaceNetworkAclEntry', call);
}

/**
 * DeleteNetworkAclEntry: a stored entry goes from the store; one EC2 put in a default ACL is
 * remembered as deleted, so it stays gone.
 */
export async function deleteNetworkAclEntry(call: Ec2Call): Promise<SandboxResponse> {
  const { acl, egress, ruleNumber } = entryRequest(call, false);
  const existing = visible(acl, egress, ruleNumber) ?? missing(ruleNumber);
  if (existing.stored) await remove(call, ACL_ENTRY, existing.stored);
  if (acl.isDefault) {
    const state = defaultAclState(call, acl.networkAclId);
    await call.ec2State.defaultAcls.put(defaultAclKey(call, acl.networkAclId), {
      ...state,
      removed: [...new Set([...state.removed, entryKey(egress, ruleNumber)])],
    });
  }
  return returnTrue('DeleteNetworkAclEntry', call);
}

function visible(acl: NetworkAclView, egress: boolean, ruleNumber: number): AclEntryView | undefined {
  return acl.entries.find((entry) => entry.egress === egress && entry.ruleNumber === ruleNumber);
}

function missing(ruleNumber: number): never {
  throw ec2Errors.notFound(
    'InvalidNetworkAclEntry.NotFound',
    `The network acl entry identified by ${ruleNumber} does not exist.`,
  );
}

async function store(call: Ec2Call, desired: ResourceModel): Promise<void> {
  await handler(call, ACL_ENTRY).create(desired, call.request.region, call.request.accountId);
}

/** The ACL, direction and rule number an entry call names, and (for a create or replace) the entry as a model. */
function entryRequest(call: Ec2Call, withContents: boolean) {
  const p = call.params;
  const networkAclId = required(p, 'NetworkAclId');
  const ruleText = required(p, 'RuleNumber');
  const egressText = required(p, 'Egress');
  const acl = findAcl(networkAcls(call), networkAclId);
  const ruleNumber = Number(ruleText);
  if (!Number.isInteger(ruleNumber) || ruleNumber < 1 || ruleNumber >= CATCH_ALL_RULE) {
    throw ec2Errors.invalidParameterValue(
      `Value (${ruleText}) for parameter ruleNumber is invalid. Expecting a value between 1 and ${CATCH_ALL_RULE - 1}.`,
    );
  }
  const egress = egressText === 'true';
  if (!withContents) return { acl, egress, ruleNumber, desired: {} };
  const ruleAction = required(p, 'RuleAction');
  if (ruleAction !== 'allow' && ruleAction !== 'deny') {
    throw ec2Errors.invalidParameterValue(
      `Value (${ruleAction}) for parameter ruleAction is invalid. Expecting allow or deny.`,
    );
  }
  const cidrBlock = p.get('CidrBlock');
  const ipv6CidrBlock = p.get('Ipv6CidrBlock');
  if (!cidrBlock && !ipv6CidrBlock) throw ec2Errors.missingParameter('CidrBlock');
  if (cidrBlock && ipv6CidrBlock) {
    throw ec2Errors.invalidParameterValue('Specify either an IPv4 or an IPv6 CIDR block, not both.');
  }
  if (cidrBlock && !ipv4Block(cidrBlock)) {
    throw ec2Errors.invalidParameterValue(
      `Value (${cidrBlock}) for parameter cidrBlock is invalid. This is not a valid CIDR block.`,
    );
  }
  const desired: ResourceModel = {
    NetworkAclId: networkAclId,
    RuleNumber: ruleNumber,
    Egress: egress,
    Protocol: protocolNumber(required(p, 'Protocol')),
    RuleAction: ruleAction,
    ...(cidrBlock ? { CidrBlock: cidrBlock } : { Ipv6CidrBlock: ipv6CidrBlock }),
    ...optionalStruct(p, 'Icmp', ['Code', 'Type']),
    ...optionalStruct(p, 'PortRange', ['From', 'To']),
  };
  return { acl, egress, ruleNumber, desired };
}

const PROTOCOL_NAMES: Readonly<Record<string, number>> = { all: -1, icmp: 1, tcp: 6, udp: 17, icmpv6: 58 };

/** EC2 takes a protocol number (-1 for all) or its name, and keeps the number. */
function protocolNumber(text: string): number {
  const named = PROTOCOL_NAMES[text.toLowerCase()];
  if (named !== undefined) return named;
  const number = Number(text);
  if (!Number.isInteger(number) || number < -1 || number > 255) {
    throw ec2Errors.invalidParameterValue(`Invalid value '${text}' for protocol.`);
  }
  return number;
}

/** `Name.Member` numbers as a `{ Name: { Member } }` model part; nothing when none is given. */
function optionalStruct(params: URLSearchParams, name: string, members: string[]): ResourceModel {
  const given = members.filter((member) => params.get(`${name}.${member}`) !== null);
  if (given.length === 0) return {};
  return {
    [name]: Object.fromEntries(given.map((member) => [member, Number(params.get(`${name}.${member}`))])),
  };
}
