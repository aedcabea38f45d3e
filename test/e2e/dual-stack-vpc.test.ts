import { DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CfnOutput, Fn, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A dual-stack VPC as a CDK user writes it: its subnets carve their IPv6 blocks out of the
// VPC's Ipv6CidrBlocks, which exist only once the VPC's AWS::EC2::VPCCidrBlock is made, after
// the VPC itself. cdkd reads them live when a subnet needs them (the VPC's record holds none).
const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });
const STACK = 'DualStackE2E';

function app(): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, STACK);
    const vpc = new ec2.Vpc(stack, 'Vpc', {
      ipProtocol: ec2.IpProtocol.DUAL_STACK,
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'Public', subnetType: ec2.SubnetType.PUBLIC }],
    });
    new CfnOutput(stack, 'VpcId', { value: vpc.vpcId });
    new CfnOutput(stack, 'VpcIpv6', { value: Fn.select(0, vpc.vpcIpv6CidrBlocks) });
  });
}

/** The first 56 bits of an IPv6 block, as 14 hex digits (its groups before `::`, padded). */
const first56Bits = (block: string) =>
  block
    .split('::')[0]!
    .split(':')
    .map((group) => group.padStart(4, '0'))
    .join('')
    .padEnd(14, '0')
    .slice(0, 14);

const output = (stdout: string, name: string) => new RegExp(`\\.${name} = (\\S+)`).exec(stdout)![1]!;

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('a dual-stack VPC', () => {
  it('deploys its subnets inside the block its VPCCidrBlock associates, redeploys as a no-op, destroys clean', async () => {
    const deployed = await cli(['deploy', '-a', app()]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const vpcId = output(deployed.stdout, 'VpcId');
    const client = await new AwsClients().client(EC2Client, 'us-east-1');
    const vpc = (await client.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs![0]!;
    const block = vpc.Ipv6CidrBlockAssociationSet![0]!.Ipv6CidrBlock!;
    expect(block).toMatch(/::\/56$/);
    expect(output(deployed.stdout, 'VpcIpv6')).toBe(block);
    const subnets = (
      await client.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }))
    ).Subnets!;
    expect(subnets).toHaveLength(2);
    // Each subnet's /64 lies in the VPC's /56: the same first 56 bits.
    for (const subnet of subnets) {
      const own = subnet.Ipv6CidrBlockAssociationSet?.[0]?.Ipv6CidrBlock ?? '';
      expect(own).toMatch(/\/64$/);
      expect(first56Bits(own)).toBe(first56Bits(block));
    }

    const again = await cli(['deploy', '-a', app()]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/(created|updated|replaced|deleted)/);

    const destroyed = await cli(['destroy', '-a', app(), '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await stackResources(sandbox.current.url)).toEqual([]);
  }, 300_000);
});
