import {
  AuthorizeSecurityGroupEgressCommand,
  AuthorizeSecurityGroupIngressCommand,
  RevokeSecurityGroupEgressCommand,
  RevokeSecurityGroupIngressCommand,
  type EC2Client,
  type IpPermission,
  type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import type { JsonObject, ProviderContext } from '../provider.js';
import { signalOf } from './common.js';

export type Direction = 'ingress' | 'egress';

/** A template rule's peer key per direction (CloudFormation names a group or prefix list by direction). */
const PEERS = {
  ingress: { group: 'SourceSecurityGroupId', prefix: 'SourcePrefixListId' },
  egress: { group: 'DestinationSecurityGroupId', prefix: 'DestinationPrefixListId' },
} as const;

const PROTOCOL_NAMES: Readonly<Record<string, string>> = { '6': 'tcp', '17': 'udp', '1': 'icmp', all: '-1' };

export function protocolOf(value: unknown): string {
  const text = String(value ?? '-1').toLowerCase();
  return PROTOCOL_NAMES[text] ?? text;
}

/** One template rule (an inline SecurityGroupIngress item, or a standalone rule's properties) as an IpPermission. */
export function permissionOf(rule: JsonObject, direction: Direction): IpPermission {
  const protocol = protocolOf(rule.IpProtocol);
  const description = rule.Description === undefined ? {} : { Description: String(rule.Description) };
  const peers = PEERS[direction];
  const ports =
    protocol === '-1'
      ? {}
      : {
          ...(rule.FromPort !== undefined && { FromPort: Number(rule.FromPort) }),
          ...(rule.ToPort !== undefined && { ToPort: Number(rule.ToPort) }),
        };
  return {
    IpProtocol: protocol,
    ...ports,
    ...(rule.CidrIp !== undefined && { IpRanges: [{ CidrIp: String(rule.CidrIp), ...description }] }),
    ...(rule.CidrIpv6 !== undefined && { Ipv6Ranges: [{ CidrIpv6: String(rule.CidrIpv6), ...description }] }),
    ...(rule[peers.group] !== undefined && {
      UserIdGroupPairs: [
        {
          GroupId: String(rule[peers.group]),
          ...(rule.SourceSecurityGroupOwnerId !== undefined && {
            UserId: String(rule.SourceSecurityGroupOwnerId),
          }),
          ...description,
        },
      ],
    }),
    ...(rule[peers.prefix] !== undefined && {
      PrefixListIds: [{ PrefixListId: String(rule[peers.prefix]), ...description }],
    }),
  };
}

/** IpPermissions as template rules, one per peer. */
export function rulesOf(permissions: IpPermission[] | undefined, direction: Direction): JsonObject[] {
  const peers = PEERS[direction];
  return (permissions ?? []).flatMap((permission) => {
    const base: JsonObject = {
      IpProtocol: permission.IpProtocol,
      ...(permission.IpProtocol !== '-1' && { FromPort: permission.FromPort, ToPort: permission.ToPort }),
    };
    const described = (description: string | undefined) => (description ? { Description: description } : {});
    return [
      ...(permission.IpRanges ?? []).map((r) => ({ ...base, CidrIp: r.CidrIp, ...described(r.Description) })),
      ...(permission.Ipv6Ranges ?? []).map((r) => ({
        ...base,
        CidrIpv6: r.CidrIpv6,
        ...described(r.Description),
      })),
      ...(permission.UserIdGroupPairs ?? []).map((r) => ({
        ...base,
        [peers.group]: r.GroupId,
        ...described(r.Description),
      })),
      ...(permission.PrefixListIds ?? []).map((r) => ({
        ...base,
        [peers.prefix]: r.PrefixListId,
        ...described(r.Description),
      })),
    ];
  });
}

/** A rule's identity for comparing template and live rules: protocol, ports, peer and description. */
export function ruleKey(rule: JsonObject, direction: Direction): string {
  const permission = permissionOf(rule, direction);
  return JSON.stringify(permission);
}

/** The allow-all egress rule EC2 gives every new group. */
export const ALLOW_ALL_EGRESS: JsonObject = { IpProtocol: '-1', CidrIp: '0.0.0.0/0' };

/** Authorize or Revoke SecurityGroup Ingress/Egress; an authorize answers the rules it made, with their ids. */
export async function ruleCall(
  client: EC2Client,
  direction: Direction,
  mode: 'authorize' | 'revoke',
  input: { GroupId: string; IpPermissions?: IpPermission[]; SecurityGroupRuleIds?: string[] },
  context: ProviderContext,
): Promise<SecurityGroupRule[]> {
  const options = signalOf(context);
  if (mode === 'revoke') {
    if (direction === 'ingress') await client.send(new RevokeSecurityGroupIngressCommand(input), options);
    else await client.send(new RevokeSecurityGroupEgressCommand(input), options);
    return [];
  }
  const output =
    direction === 'ingress'
      ? await client.send(new AuthorizeSecurityGroupIngressCommand(input), options)
      : await client.send(new AuthorizeSecurityGroupEgressCommand(input), options);
  return output.SecurityGroupRules ?? [];
}
