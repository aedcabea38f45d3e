import { listParam, structParams } from '../../protocols/ec2-query.js';

/** One rule of a security group: a protocol and port range to or from one peer. */
export interface Rule {
  protocol: string;
  fromPort?: number;
  toPort?: number;
  peer: { kind: 'cidr' | 'cidr6' | 'group' | 'prefix'; value: string; userId?: string };
  description?: string;
  /** The id of the separate rule resource (AWS::EC2::SecurityGroupIngress/Egress) the rule is, if any. */
  id?: string;
}

const PROTOCOL_NUMBERS: Readonly<Record<string, string>> = {
  '6': 'tcp',
  '17': 'udp',
  '1': 'icmp',
  all: '-1',
};

export function normalProtocol(protocol: string): string {
  const lower = protocol.toLowerCase();
  return PROTOCOL_NUMBERS[lower] ?? lower;
}

/** The rules an `IpPermissions.N` request parameter lists, one per peer. */
export function rulesFromParams(params: URLSearchParams): Rule[] {
  return structParams(params, 'IpPermissions').flatMap((permission) => {
    const base = {
      protocol: normalProtocol(permission.get('IpProtocol') ?? '-1'),
      ...ports(permission.get('FromPort'), permission.get('ToPort')),
    };
    const described = (member: URLSearchParams) => {
      const description = member.get('Description');
      return description ? { description } : {};
    };
    return [
      ...structParams(permission, 'IpRanges').map((m) => ({
        ...base,
        peer: { kind: 'cidr' as const, value: m.get('CidrIp') ?? '' },
        ...described(m),
      })),
      ...structParams(permission, 'Ipv6Ranges').map((m) => ({
        ...base,
        peer: { kind: 'cidr6' as const, value: m.get('CidrIpv6') ?? '' },
        ...described(m),
      })),
      ...structParams(permission, 'Groups').map((m) => ({
        ...base,
        peer: {
          kind: 'group' as const,
          value: m.get('GroupId') ?? '',
          ...(m.get('UserId') ? { userId: m.get('UserId')! } : {}),
        },
        ...described(m),
      })),
      ...structParams(permission, 'PrefixListIds').map((m) => ({
        ...base,
        peer: { kind: 'prefix' as const, value: m.get('PrefixListId') ?? '' },
        ...described(m),
      })),
      ...listParam(permission, 'CidrIp').map((value) => ({
        ...base,
        peer: { kind: 'cidr' as const, value },
      })),
    ];
  });
}

function ports(from: string | null, to: string | null): { fromPort?: number; toPort?: number } {
  return {
    ...(from !== null ? { fromPort: Number(from) } : {}),
    ...(to !== null ? { toPort: Number(to) } : {}),
  };
}

/** Two rules are the same rule when protocol, ports and peer agree (the description does not count). */
export function sameRule(a: Rule, b: Rule): boolean {
  const portsOf = (rule: Rule) =>
    rule.protocol === '-1' ? '' : `${rule.fromPort ?? ''}:${rule.toPort ?? ''}`;
  return (
    a.protocol === b.protocol &&
    portsOf(a) === portsOf(b) &&
    a.peer.kind === b.peer.kind &&
    a.peer.value === b.peer.value
  );
}

/** A CloudFormation inline rule (SecurityGroupIngress / SecurityGroupEgress item) as a rule. */
export function ruleFromTemplate(
  entry: Record<string, unknown>,
  direction: 'ingress' | 'egress',
): Rule | undefined {
  const text = (key: string) =>
    typeof entry[key] === 'string' || typeof entry[key] === 'number' ? String(entry[key]) : undefined;
  const peerGroup =
    direction === 'ingress' ? text('SourceSecurityGroupId') : text('DestinationSecurityGroupId');
  const prefix = direction === 'ingress' ? text('SourcePrefixListId') : text('DestinationPrefixListId');
  const peer: Rule['peer'] | undefined = text('CidrIp')
    ? { kind: 'cidr', value: text('CidrIp')! }
    : text('CidrIpv6')
      ? { kind: 'cidr6', value: text('CidrIpv6')! }
      : peerGroup
        ? {
            kind: 'group',
            value: peerGroup,
            ...(text('SourceSecurityGroupOwnerId') ? { userId: text('SourceSecurityGroupOwnerId')! } : {}),
          }
        : prefix
          ? { kind: 'prefix', value: prefix }
          : undefined;
  if (!peer) return undefined;
  const from = text('FromPort');
  const to = text('ToPort');
  const description = text('Description');
  return {
    protocol: normalProtocol(text('IpProtocol') ?? '-1'),
    ...ports(from ?? null, to ?? null),
    peer,
    ...(description ? { description } : {}),
  };
}

/** A rule as a CloudFormation inline rule, for writing it back to a Cloud Control model. */
export function ruleToTemplate(rule: Rule, direction: 'ingress' | 'egress'): Record<string, unknown> {
  const peerKey = {
    cidr: 'CidrIp',
    cidr6: 'CidrIpv6',
    group: direction === 'ingress' ? 'SourceSecurityGroupId' : 'DestinationSecurityGroupId',
    prefix: direction === 'ingress' ? 'SourcePrefixListId' : 'DestinationPrefixListId',
  }[rule.peer.kind];
  return {
    IpProtocol: rule.protocol,
    ...(rule.fromPort !== undefined ? { FromPort: rule.fromPort } : {}),
    ...(rule.toPort !== undefined ? { ToPort: rule.toPort } : {}),
    [peerKey]: rule.peer.value,
    ...(rule.description ? { Description: rule.description } : {}),
  };
}

/** The rules AWS gives a new security group: ingress from itself (default groups only), egress to anywhere. */
export const allowAllEgress = (): Rule => ({ protocol: '-1', peer: { kind: 'cidr', value: '0.0.0.0/0' } });
export const selfIngress = (groupId: string, accountId: string): Rule => ({
  protocol: '-1',
  peer: { kind: 'group', value: groupId, userId: accountId },
});
