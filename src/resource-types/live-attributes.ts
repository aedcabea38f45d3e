/**
 * Spec 002 "Fn::GetAtt attributes read live": the attributes cdkd reads from AWS when the
 * state record does not hold them, instead of ever answering the physical id.
 */

/** The attributes read live per type. */
export const LIVE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  'AWS::EC2::Instance': ['PrivateIp', 'PublicIp', 'PrivateDnsName', 'PublicDnsName', 'AvailabilityZone'],
  'AWS::EC2::VPC': ['DefaultSecurityGroup', 'DefaultNetworkAcl', 'Ipv6CidrBlocks'],
  // Neither named on the VPC or subnet by EC2: an SDK-made one's record does not hold them.
  'AWS::EC2::Subnet': ['NetworkAclAssociationId'],
  'AWS::CloudFront::Distribution': ['DomainName'],
  'AWS::EC2::SecurityGroup': ['VpcId'],
};

/** Attributes the record must hold: no read can recover them, so their absence is refused. */
const REFUSED_WHEN_ABSENT: Readonly<Record<string, readonly string[]>> = {
  'AWS::RDS::DBProxy': ['VpcId'],
  'AWS::RDS::DBProxyEndpoint': ['VpcId'],
};

/**
 * Values recorded empty that AWS may have filled since: '' an older cdkd wrote for a security
 * group declared without VpcId; a VPC's IPv6 blocks, which its `AWS::EC2::VPCCidrBlock`
 * associates after the VPC is made (a dual-stack subnet reads them then).
 */
const EMPTY_MEANS_ABSENT: Readonly<Record<string, readonly string[]>> = {
  'AWS::EC2::SecurityGroup': ['VpcId'],
  'AWS::EC2::VPC': ['Ipv6CidrBlocks'],
};

/**
 * How one Fn::GetAtt is answered: `recorded` from the record (or, for an attribute outside
 * this table, as any other), `live` from a read, `refuse` with no read.
 */
export type LiveAttributeRoute = 'recorded' | 'live' | 'refuse';

export function liveAttributeRoute(
  type: string,
  attribute: string,
  attributes: Readonly<Record<string, unknown>>,
): LiveAttributeRoute {
  const value = Object.hasOwn(attributes, attribute) ? attributes[attribute] : undefined;
  const absent =
    value === undefined ||
    value === null ||
    ((value === '' || (Array.isArray(value) && value.length === 0)) &&
      (EMPTY_MEANS_ABSENT[type]?.includes(attribute) ?? false));
  if (!absent) return 'recorded';
  if (LIVE_ATTRIBUTES[type]?.includes(attribute)) return 'live';
  if (REFUSED_WHEN_ABSENT[type]?.includes(attribute)) return 'refuse';
  return 'recorded';
}
