import { CreateStackCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { ListResourcesCommand, type CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import { DescribeVpcsCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlCalls } from './cloudcontrol-calls.js';
import { cloudFormationClient, settled, template } from './cloudformation-helpers.js';
import { cloudControlClient, ec2Client } from './helpers.js';

// Cloud Control reads a VPC's IPv6 blocks as AWS does: none until an AWS::EC2::VPCCidrBlock
// associates one, then the block EC2's DescribeVpcs lists for it.
let sandbox: Sandbox;
let cc: CloudControlClient;
let ec2: EC2Client;
let cfn: CloudFormationClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cc = cloudControlClient(sandbox);
  cfn = cloudFormationClient(sandbox);
  ec2 = ec2Client(sandbox);
});
afterAll(async () => {
  cc.destroy();
  cfn.destroy();
  ec2.destroy();
  await sandbox.stop();
});

const { create, remove, properties } = cloudControlCalls(() => cc);

async function made(type: string, desired: Record<string, unknown>): Promise<string> {
  const event = await create(type, desired);
  expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
  return event.Identifier!;
}

const associations = async (vpcId: string) =>
  (await ec2.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs![0]!.Ipv6CidrBlockAssociationSet ?? [];

const describedIpv6 = async (vpcId: string) =>
  (await associations(vpcId)).map((association) => association.Ipv6CidrBlock);

describe("Cloud Control's read of a VPC's Ipv6CidrBlocks", () => {
  it('is empty for an IPv4-only VPC, lists the /56 a VPCCidrBlock associates, and empties when it goes', async () => {
    const vpcId = await made('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' });
    expect((await properties('AWS::EC2::VPC', vpcId)).Ipv6CidrBlocks).toEqual([]);
    expect(await describedIpv6(vpcId)).toEqual([]);

    const association = await made('AWS::EC2::VPCCidrBlock', {
      VpcId: vpcId,
      AmazonProvidedIpv6CidrBlock: true,
    });
    const blocks = (await properties('AWS::EC2::VPC', vpcId)).Ipv6CidrBlocks as string[];
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatch(/^2600:1f[0-9a-f]{2}:[0-9a-f]{1,4}:[0-9a-f]{1,4}::\/56$/);
    expect(await describedIpv6(vpcId)).toEqual(blocks);
    // Its Id is the association's, as EC2 names them.
    expect(association).toMatch(/^vpc-cidr-assoc-[0-9a-f]{17}\|vpc-/);
    expect((await associations(vpcId))[0]!.AssociationId).toBe(association.split('|')[0]);
    // The association reads as the block it holds; another read answers the same.
    expect((await properties('AWS::EC2::VPCCidrBlock', association)).Ipv6CidrBlock).toBe(blocks[0]);
    expect((await properties('AWS::EC2::VPC', vpcId)).Ipv6CidrBlocks).toEqual(blocks);
    const listed = await cc.send(new ListResourcesCommand({ TypeName: 'AWS::EC2::VPC' }));
    const entry = listed.ResourceDescriptions!.find((description) => description.Identifier === vpcId)!;
    expect(JSON.parse(entry.Properties!).Ipv6CidrBlocks).toEqual(blocks);

    expect((await remove('AWS::EC2::VPCCidrBlock', association)).OperationStatus).toBe('SUCCESS');
    expect((await properties('AWS::EC2::VPC', vpcId)).Ipv6CidrBlocks).toEqual([]);
    expect(await describedIpv6(vpcId)).toEqual([]);
  });

  it("lists only the VPC's own IPv6 blocks, not an IPv4 association's nor another VPC's", async () => {
    const vpcId = await made('AWS::EC2::VPC', { CidrBlock: '10.1.0.0/16' });
    const other = await made('AWS::EC2::VPC', { CidrBlock: '10.2.0.0/16' });
    const ipv4 = await made('AWS::EC2::VPCCidrBlock', { VpcId: vpcId, CidrBlock: '10.3.0.0/16' });
    await made('AWS::EC2::VPCCidrBlock', { VpcId: other, AmazonProvidedIpv6CidrBlock: true });
    await made('AWS::EC2::VPCCidrBlock', { VpcId: vpcId, Ipv6CidrBlock: '2600:1f18:abc:de00::/56' });
    expect((await properties('AWS::EC2::VPC', vpcId)).Ipv6CidrBlocks).toEqual(['2600:1f18:abc:de00::/56']);
    expect((await properties('AWS::EC2::VPCCidrBlock', ipv4)).Ipv6CidrBlock).toBeUndefined();
    expect((await properties('AWS::EC2::VPC', other)).Ipv6CidrBlocks).toHaveLength(1);
  });

  it("reads a subnet's Ipv6CidrBlocks as the /64 it was given, else none", async () => {
    const vpcId = await made('AWS::EC2::VPC', { CidrBlock: '10.4.0.0/16' });
    const plain = await made('AWS::EC2::Subnet', { VpcId: vpcId, CidrBlock: '10.4.0.0/24' });
    const dual = await made('AWS::EC2::Subnet', {
      VpcId: vpcId,
      CidrBlock: '10.4.1.0/24',
      Ipv6CidrBlock: '2600:1f18:abc:de01::/64',
    });
    expect((await properties('AWS::EC2::Subnet', plain)).Ipv6CidrBlocks).toEqual([]);
    expect((await properties('AWS::EC2::Subnet', dual)).Ipv6CidrBlocks).toEqual(['2600:1f18:abc:de01::/64']);
  });

  it("answers the sandbox's CloudFormation Fn::GetAtt with the block associated after the VPC was made", async () => {
    // CDK's dual-stack subnets carve their /64 out of the VPC's block once its VPCCidrBlock exists.
    const vpcBlock = { 'Fn::Select': [0, { 'Fn::GetAtt': ['Vpc', 'Ipv6CidrBlocks'] }] };
    await cfn.send(
      new CreateStackCommand({
        StackName: 'dual-stack',
        TemplateBody: template(
          {
            Vpc: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.5.0.0/16' } },
            Ipv6: {
              Type: 'AWS::EC2::VPCCidrBlock',
              Properties: { VpcId: { Ref: 'Vpc' }, AmazonProvidedIpv6CidrBlock: true },
            },
            Subnet: {
              Type: 'AWS::EC2::Subnet',
              DependsOn: ['Ipv6'],
              Properties: {
                VpcId: { Ref: 'Vpc' },
                CidrBlock: '10.5.0.0/24',
                Ipv6CidrBlock: { 'Fn::Select': [0, { 'Fn::Cidr': [vpcBlock, 2, '64'] }] },
              },
            },
          },
          {
            Outputs: {
              VpcId: { Value: { Ref: 'Vpc' } },
              Block: { Value: vpcBlock },
              SubnetId: { Value: { Ref: 'Subnet' } },
            },
          },
        ),
      }),
    );
    const stack = await settled(cfn, 'dual-stack');
    expect(stack.StackStatus, stack.StackStatusReason).toBe('CREATE_COMPLETE');
    const output = (key: string) => stack.Outputs!.find((entry) => entry.OutputKey === key)!.OutputValue!;
    expect(await describedIpv6(output('VpcId'))).toEqual([output('Block')]);
    const subnet = await properties('AWS::EC2::Subnet', output('SubnetId'));
    expect(subnet.Ipv6CidrBlock).toBe(output('Block').replace('::/56', '::/64'));
  });
});
