import {
  CreateResourceCommand,
  GetResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  AuthorizeSecurityGroupEgressCommand,
  AuthorizeSecurityGroupIngressCommand,
  DescribeAvailabilityZonesCommand,
  DescribeImagesCommand,
  DescribeRegionsCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcEndpointServicesCommand,
  DescribeVpcsCommand,
  DescribeVpnGatewaysCommand,
  EC2Client,
  RevokeSecurityGroupEgressCommand,
  RevokeSecurityGroupIngressCommand,
  type IpPermission,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, settle } from './helpers.js';

const ACCOUNT = '000000000000';
let sandbox: Sandbox;
let cc: CloudControlClient;
const clients: EC2Client[] = [];

function ec2(region = 'us-east-1'): EC2Client {
  const client = new EC2Client({
    endpoint: sandbox.url,
    region,
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cc = cloudControlClient(sandbox);
});
afterAll(async () => {
  for (const client of [cc, ...clients]) client.destroy();
  await sandbox.stop();
});

async function create(type: string, desired: Record<string, unknown>): Promise<string> {
  const accepted = await cc.send(
    new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(desired) }),
  );
  const { event } = await settle(cc, accepted.ProgressEvent!);
  expect(event.OperationStatus).toBe('SUCCESS');
  return event.Identifier!;
}

async function model(type: string, identifier: string): Promise<Record<string, unknown>> {
  const result = await cc.send(new GetResourceCommand({ TypeName: type, Identifier: identifier }));
  return JSON.parse(result.ResourceDescription!.Properties!) as Record<string, unknown>;
}

const defaultIngress = (groupId: string): IpPermission => ({
  IpProtocol: '-1',
  UserIdGroupPairs: [{ GroupId: groupId, UserId: ACCOUNT }],
});
const allEgress: IpPermission = { IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] };

describe('EC2: what an account holds before any deploy', () => {
  it('lists the availability zones of the region the client signs for', async () => {
    const east = await ec2('us-east-1').send(new DescribeAvailabilityZonesCommand({}));
    expect(east.AvailabilityZones!.map((zone) => zone.ZoneName)).toEqual([
      'us-east-1a',
      'us-east-1b',
      'us-east-1c',
      'us-east-1d',
      'us-east-1e',
      'us-east-1f',
    ]);
    const west = await ec2('eu-west-1').send(new DescribeAvailabilityZonesCommand({}));
    expect(west.AvailabilityZones).toHaveLength(3);
    expect(west.AvailabilityZones![0]).toMatchObject({
      ZoneName: 'eu-west-1a',
      State: 'available',
      ZoneId: 'euw1-az1',
    });
    const regions = await ec2().send(new DescribeRegionsCommand({ RegionNames: ['eu-west-1'] }));
    expect(regions.Regions).toEqual([expect.objectContaining({ RegionName: 'eu-west-1' })]);
  });

  it('has a default VPC per region with a public subnet per zone and a default security group', async () => {
    const client = ec2('eu-west-2');
    const vpcs = await client.send(
      new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }),
    );
    expect(vpcs.Vpcs).toHaveLength(1);
    const vpc = vpcs.Vpcs![0]!;
    expect(vpc).toMatchObject({ CidrBlock: '172.31.0.0/16', IsDefault: true, OwnerId: ACCOUNT });
    expect(vpc.VpcId).toMatch(/^vpc-[0-9a-f]{17}$/);
    const subnets = await client.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc.VpcId!] }] }),
    );
    expect(
      subnets.Subnets!.map((subnet) => [
        subnet.AvailabilityZone,
        subnet.CidrBlock,
        subnet.MapPublicIpOnLaunch,
      ]),
    ).toEqual([
      ['eu-west-2a', '172.31.0.0/20', true],
      ['eu-west-2b', '172.31.16.0/20', true],
      ['eu-west-2c', '172.31.32.0/20', true],
    ]);
    const tables = await client.send(
      new DescribeRouteTablesCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc.VpcId!] }] }),
    );
    expect(tables.RouteTables).toHaveLength(1);
    expect(tables.RouteTables![0]!.Associations![0]!.Main).toBe(true);
    expect(tables.RouteTables![0]!.Routes!.map((route) => route.GatewayId)).toEqual([
      'local',
      expect.stringMatching(/^igw-/),
    ]);
    const groups = await client.send(
      new DescribeSecurityGroupsCommand({
        Filters: [
          { Name: 'vpc-id', Values: [vpc.VpcId!] },
          { Name: 'group-name', Values: ['default'] },
        ],
      }),
    );
    const group = groups.SecurityGroups![0]!;
    expect(group.IpPermissions).toEqual([expect.objectContaining(defaultIngress(group.GroupId!))]);
    expect(group.IpPermissionsEgress).toEqual([expect.objectContaining(allEgress)]);
    // Stable: another region has another default VPC, the same region the same one.
    const again = await ec2('eu-west-2').send(new DescribeVpcsCommand({ VpcIds: [vpc.VpcId!] }));
    expect(again.Vpcs![0]!.VpcId).toBe(vpc.VpcId);
    const other = await failure(ec2('eu-west-1').send(new DescribeVpcsCommand({ VpcIds: [vpc.VpcId!] })));
    expect(other).toMatchObject({ name: 'InvalidVpcID.NotFound', status: 400 });
  });

  it("knows AWS's public images by owner and name pattern, and refuses an unknown id in EC2's error shape", async () => {
    const images = await ec2().send(
      new DescribeImagesCommand({
        Owners: ['amazon'],
        Filters: [
          { Name: 'name', Values: ['al2023-ami-2023*'] },
          { Name: 'architecture', Values: ['arm64'] },
        ],
      }),
    );
    expect(images.Images!.length).toBeGreaterThan(0);
    for (const image of images.Images!) {
      expect(image.Name).toMatch(/^al2023-ami-2023.*arm64$/);
      expect(image).toMatchObject({ Architecture: 'arm64', State: 'available', ImageOwnerAlias: 'amazon' });
    }
    const missing = await failure(
      ec2().send(new DescribeImagesCommand({ ImageIds: ['ami-0123456789abcdef0'] })),
    );
    expect(missing).toMatchObject({ name: 'InvalidAMIID.NotFound', status: 400 });
    expect(missing.error.message).toContain('ami-0123456789abcdef0');
    const badFilter = await failure(
      ec2().send(new DescribeVpcsCommand({ Filters: [{ Name: 'no-such', Values: ['x'] }] })),
    );
    expect(badFilter.name).toBe('InvalidParameterValue');
  });

  it('offers endpoint services in every zone of the region', async () => {
    const result = await ec2('eu-west-1').send(
      new DescribeVpcEndpointServicesCommand({ ServiceNames: ['com.amazonaws.eu-west-1.s3'] }),
    );
    expect(result.ServiceDetails![0]!.AvailabilityZones).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
  });
});

describe('EC2 describes the networks Cloud Control made', () => {
  it('reads VPCs, subnets, route tables, gateways and security groups from the Cloud Control store', async () => {
    const client = ec2();
    const vpcId = await create('AWS::EC2::VPC', {
      CidrBlock: '10.1.0.0/16',
      Tags: [{ Key: 'Name', Value: 'lookup-me' }],
    });
    expect(vpcId).toMatch(/^vpc-[0-9a-f]{17}$/);
    const subnetId = await create('AWS::EC2::Subnet', {
      VpcId: vpcId,
      CidrBlock: '10.1.0.0/24',
      AvailabilityZone: 'us-east-1b',
      Tags: [{ Key: 'aws-cdk:subnet-type', Value: 'Public' }],
    });
    const igw = await create('AWS::EC2::InternetGateway', {});
    expect(igw).toMatch(/^igw-/);
    const table = await create('AWS::EC2::RouteTable', { VpcId: vpcId });
    await create('AWS::EC2::Route', {
      RouteTableId: table,
      DestinationCidrBlock: '0.0.0.0/0',
      GatewayId: igw,
    });
    await create('AWS::EC2::SubnetRouteTableAssociation', { SubnetId: subnetId, RouteTableId: table });
    const vgw = await create('AWS::EC2::VPNGateway', { Type: 'ipsec.1' });
    await create('AWS::EC2::VPCGatewayAttachment', { VpcId: vpcId, VpnGatewayId: vgw });

    const vpcs = await client.send(
      new DescribeVpcsCommand({ Filters: [{ Name: 'tag:Name', Values: ['lookup-*'] }] }),
    );
    expect(vpcs.Vpcs!.map((vpc) => [vpc.VpcId, vpc.CidrBlock, vpc.IsDefault])).toEqual([
      [vpcId, '10.1.0.0/16', false],
    ]);
    const subnets = await client.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }),
    );
    expect(subnets.Subnets!.map((subnet) => [subnet.SubnetId, subnet.AvailabilityZone, subnet.Tags])).toEqual(
      [[subnetId, 'us-east-1b', [{ Key: 'aws-cdk:subnet-type', Value: 'Public' }]]],
    );
    const tables = await client.send(
      new DescribeRouteTablesCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }),
    );
    const made = tables.RouteTables!.find((candidate) => candidate.RouteTableId === table)!;
    expect(made.Associations!.map((association) => association.SubnetId)).toEqual([subnetId]);
    expect(made.Routes!.map((route) => [route.DestinationCidrBlock, route.GatewayId])).toEqual([
      ['10.1.0.0/16', 'local'],
      ['0.0.0.0/0', igw],
    ]);
    expect(
      tables.RouteTables!.filter((candidate) => candidate.Associations!.some((a) => a.Main)),
    ).toHaveLength(1);
    const gateways = await client.send(
      new DescribeVpnGatewaysCommand({
        Filters: [
          { Name: 'attachment.vpc-id', Values: [vpcId] },
          { Name: 'state', Values: ['available'] },
        ],
      }),
    );
    expect(gateways.VpnGateways!.map((gateway) => gateway.VpnGatewayId)).toEqual([vgw]);

    // The VPC's DefaultSecurityGroup attribute is the default group EC2 lists for it.
    const defaultGroup = String((await model('AWS::EC2::VPC', vpcId)).DefaultSecurityGroup);
    expect(defaultGroup).toMatch(/^sg-/);
    const groups = await client.send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }),
    );
    expect(groups.SecurityGroups!.map((group) => [group.GroupId, group.GroupName])).toEqual([
      [defaultGroup, 'default'],
    ]);
  });

  it("revokes and restores a default group's rules as the CDK's VpcRestrictDefaultSG handler does", async () => {
    const client = ec2();
    const vpcId = await create('AWS::EC2::VPC', { CidrBlock: '10.2.0.0/16' });
    const groupId = String((await model('AWS::EC2::VPC', vpcId)).DefaultSecurityGroup);
    await client.send(new RevokeSecurityGroupEgressCommand({ GroupId: groupId, IpPermissions: [allEgress] }));
    await client.send(
      new RevokeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: [defaultIngress(groupId)] }),
    );
    const bare = (await client.send(new DescribeSecurityGroupsCommand({ GroupIds: [groupId] })))
      .SecurityGroups![0]!;
    expect([bare.IpPermissions, bare.IpPermissionsEgress]).toEqual([[], []]);
    const again = await failure(
      client.send(new RevokeSecurityGroupEgressCommand({ GroupId: groupId, IpPermissions: [allEgress] })),
    );
    expect(again).toMatchObject({ name: 'InvalidPermission.NotFound', status: 400 });

    await client.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: groupId,
        IpPermissions: [defaultIngress(groupId)],
      }),
    );
    await client.send(
      new AuthorizeSecurityGroupEgressCommand({ GroupId: groupId, IpPermissions: [allEgress] }),
    );
    const restored = (await client.send(new DescribeSecurityGroupsCommand({ GroupIds: [groupId] })))
      .SecurityGroups![0]!;
    expect(restored.IpPermissions).toEqual([expect.objectContaining(defaultIngress(groupId))]);
    expect(restored.IpPermissionsEgress).toEqual([expect.objectContaining(allEgress)]);
    const duplicate = await failure(
      client.send(new AuthorizeSecurityGroupEgressCommand({ GroupId: groupId, IpPermissions: [allEgress] })),
    );
    expect(duplicate.name).toBe('InvalidPermission.Duplicate');
    const unknown = await failure(
      client.send(
        new RevokeSecurityGroupEgressCommand({ GroupId: 'sg-00000000000000000', IpPermissions: [allEgress] }),
      ),
    );
    expect(unknown.name).toBe('InvalidGroup.NotFound');
  });

  it("changes a Cloud Control security group's rules in its Cloud Control model", async () => {
    const client = ec2();
    const vpcId = await create('AWS::EC2::VPC', { CidrBlock: '10.3.0.0/16' });
    const groupId = await create('AWS::EC2::SecurityGroup', {
      GroupDescription: 'web',
      VpcId: vpcId,
      SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' }],
    });
    expect(groupId).toMatch(/^sg-/);
    await create('AWS::EC2::SecurityGroupIngress', {
      GroupId: groupId,
      IpProtocol: 'tcp',
      FromPort: 22,
      ToPort: 22,
      CidrIp: '10.0.0.0/8',
    });
    const described = (await client.send(new DescribeSecurityGroupsCommand({ GroupIds: [groupId] })))
      .SecurityGroups![0]!;
    expect(described.IpPermissions!.map((p) => [p.IpProtocol, p.FromPort, p.IpRanges![0]!.CidrIp])).toEqual([
      ['tcp', 443, '0.0.0.0/0'],
      ['tcp', 22, '10.0.0.0/8'],
    ]);
    expect(described.IpPermissionsEgress).toEqual([expect.objectContaining(allEgress)]);
    await client.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: groupId,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 80, ToPort: 80, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
      }),
    );
    expect((await model('AWS::EC2::SecurityGroup', groupId)).SecurityGroupIngress).toEqual([
      { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' },
      { IpProtocol: 'tcp', FromPort: 80, ToPort: 80, CidrIp: '0.0.0.0/0' },
    ]);
  });
});
