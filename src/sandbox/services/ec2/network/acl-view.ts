import type { ResourceEntry, ResourceModel } from '../../../resources.js';
import type { DefaultAclState, Ec2Call } from '../call.js';
import type { Tags } from '../filters.js';
import { NetworkView, tagsOf, type SubnetView, type VpcView } from '../network.js';
import { entries, handler, KINDS } from './store.js';

export const ACL_ENTRY = 'AWS::EC2::NetworkAclEntry';
export const ACL_ASSOCIATION = 'AWS::EC2::SubnetNetworkAclAssociation';

export interface AclEntryView {
  ruleNumber: number;
  egress: boolean;
  /** EC2's protocol number as text; `-1` for all. */
  protocol: string;
  ruleAction: string;
  cidrBlock?: string;
  ipv6CidrBlock?: string;
  icmp?: { code?: number; type?: number };
  portRange?: { from?: number; to?: number };
  /** Its model, for an entry made by a call (absent for the entries EC2 puts in itself). */
  stored?: ResourceEntry;
}

export interface AclAssociationView {
  associationId: string;
  networkAclId: string;
  subnetId: string;
  /** Its model, for an association made by a call (absent for the one made with the subnet). */
  stored?: ResourceEntry;
}

export interface NetworkAclView {
  networkAclId: string;
  vpcId: string;
  isDefault: boolean;
  entries: AclEntryView[];
  associations: AclAssociationView[];
  tags: Tags;
  /** Its model, for an ACL made by a call (absent for a VPC's default ACL). */
  stored?: ResourceEntry;
}

/** The rule EC2 closes every ACL with (its IPv6 twin is numbered one past it); never changed. */
export const CATCH_ALL_RULE = 32767;

/** `egress/rule`: an ACL holds one entry per direction and rule number. */
export const entryKey = (egress: boolean, ruleNumber: number): string => `${egress}/${ruleNumber}`;

export const defaultAclKey = (call: Ec2Call, aclId: string): string =>
  `${call.request.region}/${call.request.accountId}/${aclId}`;

export function defaultAclState(call: Ec2Call, aclId: string): DefaultAclState {
  return call.ec2State.defaultAcls.get(defaultAclKey(call, aclId)) ?? { removed: [], tags: [] };
}

/**
 * The network ACLs of a region as EC2 describes them: each VPC's default ACL (made with the
 * VPC, so read from it), the ACLs kept as Cloud Control models, their entries (the defaults
 * EC2 puts in, under the entries calls made) and each subnet's one association: an
 * association model, else the one with its VPC's default ACL made with the subnet.
 */
export function networkAcls(call: Ec2Call): NetworkAclView[] {
  const network = new NetworkView(call.context.resources, call.request.accountId, call.request.region);
  const vpcs = network.vpcs();
  const storedEntries = handler(call, ACL_ENTRY).list(call.request.region, call.request.accountId);
  const associations = subnetAssociations(call, network.subnets(), vpcs);
  const ipv6 = new Set(vpcs.filter((vpc) => vpc.ipv6Blocks.length > 0).map((vpc) => vpc.vpcId));
  const view = (
    networkAclId: string,
    vpcId: string,
    made: AclEntryView[],
    rest: Pick<NetworkAclView, 'isDefault' | 'tags' | 'stored'>,
  ): NetworkAclView => {
    const fromCalls = storedEntries.filter((entry) => entry.model.NetworkAclId === networkAclId).map(entryOf);
    const taken = new Set(fromCalls.map((entry) => entryKey(entry.egress, entry.ruleNumber)));
    const kept = made.filter((entry) => !taken.has(entryKey(entry.egress, entry.ruleNumber)));
    return {
      networkAclId,
      vpcId,
      entries: [...kept, ...fromCalls, ...catchAll(ipv6.has(vpcId))].sort(
        (a, b) => Number(b.egress) - Number(a.egress) || a.ruleNumber - b.ruleNumber,
      ),
      associations: associations.filter((association) => association.networkAclId === networkAclId),
      ...rest,
    };
  };
  const defaults = vpcs.map((vpc) => {
    const state = defaultAclState(call, vpc.defaultNetworkAclId);
    const made = defaultEntries(ipv6.has(vpc.vpcId)).filter(
      (entry) => !state.removed.includes(entryKey(entry.egress, entry.ruleNumber)),
    );
    return view(vpc.defaultNetworkAclId, vpc.vpcId, made, { isDefault: true, tags: state.tags });
  });
  const made = entries(call, KINDS.acl).map((stored) =>
    view(String(stored.model.Id), String(stored.model.VpcId), [], {
      isDefault: false,
      tags: tagsOf(stored.model),
      stored,
    }),
  );
  return [...defaults, ...made];
}

function subnetAssociations(call: Ec2Call, subnets: SubnetView[], vpcs: VpcView[]): AclAssociationView[] {
  const defaultAclOf = new Map(vpcs.map((vpc) => [vpc.vpcId, vpc.defaultNetworkAclId]));
  const stored = handler(call, ACL_ASSOCIATION).list(call.request.region, call.request.accountId);
  return subnets.map((subnet) => {
    // The last one made wins: a subnet is in one ACL, and each association replaces the one before.
    const explicit = stored.filter((entry) => entry.model.SubnetId === subnet.subnetId).at(-1);
    return explicit
      ? {
          associationId: String(explicit.model.AssociationId),
          networkAclId: String(explicit.model.NetworkAclId),
          subnetId: subnet.subnetId,
          stored: explicit,
        }
      : {
          associationId: subnet.networkAclAssociationId,
          networkAclId: defaultAclOf.get(subnet.vpcId) ?? '',
          subnetId: subnet.subnetId,
        };
  });
}

/** What EC2 puts in a VPC's default ACL: allow all, both ways, and for IPv6 too once the VPC has a block. */
function defaultEntries(ipv6: boolean): AclEntryView[] {
  return [true, false].flatMap((egress) => [
    { ruleNumber: 100, egress, protocol: '-1', ruleAction: 'allow', cidrBlock: '0.0.0.0/0' },
    ...(ipv6
      ? [{ ruleNumber: 101, egress, protocol: '-1', ruleAction: 'allow', ipv6CidrBlock: '::/0' }]
      : []),
  ]);
}

function catchAll(ipv6: boolean): AclEntryView[] {
  return [true, false].flatMap((egress) => [
    { ruleNumber: CATCH_ALL_RULE, egress, protocol: '-1', ruleAction: 'deny', cidrBlock: '0.0.0.0/0' },
    ...(ipv6
      ? [
          {
            ruleNumber: CATCH_ALL_RULE + 1,
            egress,
            protocol: '-1',
            ruleAction: 'deny',
            ipv6CidrBlock: '::/0',
          },
        ]
      : []),
  ]);
}

/** An AWS::EC2::NetworkAclEntry model as EC2 shows it (the template's values may be text or typed). */
function entryOf(stored: ResourceEntry): AclEntryView {
  const model = stored.model;
  const number = (value: unknown) => (value === undefined || value === null ? undefined : Number(value));
  const icmp = model.Icmp as ResourceModel | undefined;
  const ports = model.PortRange as ResourceModel | undefined;
  return {
    ruleNumber: Number(model.RuleNumber),
    egress: model.Egress === true || model.Egress === 'true',
    protocol: String(model.Protocol),
    ruleAction: String(model.RuleAction),
    ...(typeof model.CidrBlock === 'string' && { cidrBlock: model.CidrBlock }),
    ...(typeof model.Ipv6CidrBlock === 'string' && { ipv6CidrBlock: model.Ipv6CidrBlock }),
    ...(icmp && { icmp: { code: number(icmp.Code), type: number(icmp.Type) } }),
    ...(ports && { portRange: { from: number(ports.From), to: number(ports.To) } }),
    stored,
  };
}

export function findAcl(acls: NetworkAclView[], networkAclId: string): NetworkAclView {
  const acl = acls.find((candidate) => candidate.networkAclId === networkAclId);
  if (!acl) throw KINDS.acl.notFound(networkAclId);
  return acl;
}
