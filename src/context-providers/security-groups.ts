import {
  DescribeSecurityGroupsCommand,
  EC2Client,
  type Filter,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import { LookupError, type Provider } from './provider.js';

/** One security group by id or by name (and VPC): `{ securityGroupId, allowAllOutbound }`. */
export const securityGroup: Provider = async (client, query) => {
  const { securityGroupId, securityGroupName, vpcId } = query as Record<string, string | undefined>;
  if (securityGroupId && securityGroupName) {
    throw new LookupError(
      "'securityGroupId' and 'securityGroupName' can not be specified both when looking up a security group",
    );
  }
  if (!securityGroupId && !securityGroupName) {
    throw new LookupError(
      "'securityGroupId' or 'securityGroupName' must be specified to look up a security group",
    );
  }
  const filters: Filter[] = [
    ...(vpcId ? [{ Name: 'vpc-id', Values: [vpcId] }] : []),
    ...(securityGroupName ? [{ Name: 'group-name', Values: [securityGroupName] }] : []),
  ];
  const ec2 = await client(EC2Client);
  const response = await ec2.send(
    new DescribeSecurityGroupsCommand({
      ...(securityGroupId ? { GroupIds: [securityGroupId] } : {}),
      ...(filters.length > 0 ? { Filters: filters } : {}),
    }),
  );
  const groups = response.SecurityGroups ?? [];
  if (groups.length === 0)
    throw new LookupError(`No security groups found matching ${JSON.stringify(query)}`);
  if (groups.length > 1)
    throw new LookupError(`More than one security groups found matching ${JSON.stringify(query)}`);
  return { value: { securityGroupId: groups[0]!.GroupId, allowAllOutbound: allowsAllOutbound(groups[0]!) } };
};

/** All traffic out to both 0.0.0.0/0 and ::/0, as aws-cdk-lib means by allowAllOutbound. */
export function allowsAllOutbound(group: SecurityGroup): boolean {
  const all = (group.IpPermissionsEgress ?? []).filter((permission) => permission.IpProtocol === '-1');
  return (
    all.some((permission) => permission.IpRanges?.some((range) => range.CidrIp === '0.0.0.0/0')) &&
    all.some((permission) => permission.Ipv6Ranges?.some((range) => range.CidrIpv6 === '::/0'))
  );
}
