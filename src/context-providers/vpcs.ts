import {
  DescribeRouteTablesCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  DescribeVpnGatewaysCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { LookupError, type Provider } from './provider.js';
import { vpcContextValue } from './vpc-shape.js';

/** The one VPC matching the query's filters, with its subnets grouped as aws-cdk-lib reads them. */
export const vpc: Provider = async (client, query) => {
  const ec2 = await client(EC2Client);
  const filter = (query.filter ?? {}) as Record<string, string>;
  const vpcs =
    (
      await ec2.send(
        new DescribeVpcsCommand({
          Filters: Object.entries(filter).map(([Name, value]) => ({ Name, Values: [value] })),
        }),
      )
    ).Vpcs ?? [];
  if (vpcs.length === 0) throw new LookupError(`Could not find any VPCs matching ${JSON.stringify(query)}`);
  if (vpcs.length > 1) {
    throw new LookupError(
      `Found ${vpcs.length} VPCs matching ${JSON.stringify(query)}; please narrow the search criteria`,
    );
  }
  const found = vpcs[0]!;
  const byVpc = { Filters: [{ Name: 'vpc-id', Values: [found.VpcId!] }] };
  const subnets = (await ec2.send(new DescribeSubnetsCommand(byVpc))).Subnets ?? [];
  const tables = (await ec2.send(new DescribeRouteTablesCommand(byVpc))).RouteTables ?? [];
  let vpnGatewayId: string | undefined;
  if (query.returnVpnGateways ?? true) {
    const gateways = await ec2.send(
      new DescribeVpnGatewaysCommand({
        Filters: [
          { Name: 'attachment.vpc-id', Values: [found.VpcId!] },
          { Name: 'attachment.state', Values: ['attached'] },
          { Name: 'state', Values: ['available'] },
        ],
      }),
    );
    if (gateways.VpnGateways?.length === 1) vpnGatewayId = gateways.VpnGateways[0]!.VpnGatewayId;
  }
  return {
    value: vpcContextValue(found, subnets, tables, vpnGatewayId, {
      ...(typeof query.subnetGroupNameTag === 'string'
        ? { subnetGroupNameTag: query.subnetGroupNameTag }
        : {}),
      returnAsymmetricSubnets: query.returnAsymmetricSubnets === true,
    }),
  };
};
