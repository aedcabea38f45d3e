import {
  CloudFrontClient,
  CreateDistributionCommand,
  DeleteDistributionCommand,
  GetDistributionCommand,
  ListDistributionsCommand,
} from '@aws-sdk/client-cloudfront';
import {
  CreateResourceCommand,
  GetResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  DescribeNetworkAclsCommand,
  DescribeSecurityGroupsCommand,
  DescribeVpcsCommand,
  EC2Client,
  RunInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { liveAttributeReader, type LiveAttributeRequest } from '../../src/providers/live-attributes/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { cloudControlClient, settle } from '../sandbox/helpers.js';
import { setLatency } from './lambda-helpers.js';

// The live reads of spec 002 against the sandbox, through the real AWS SDK.
const sandbox = useSandbox();
let clients: AwsClients;
let ec2: EC2Client;
let cc: CloudControlClient;
let cloudFront: CloudFrontClient;

beforeAll(() => {
  clients = new AwsClients({ region: 'us-east-1' });
  ec2 = new EC2Client({ region: 'us-east-1' });
  cc = cloudControlClient(sandbox.current);
  cloudFront = new CloudFrontClient({ region: 'us-east-1' });
});
afterAll(() => {
  for (const client of [ec2, cc, cloudFront]) client.destroy();
});
afterEach(async () => setLatency(sandbox.current.url, {}));

const reader = () => liveAttributeReader({ clients, retry: (_label, call) => call() });
const request = (type: string, physicalId: string, attribute: string): LiveAttributeRequest => ({
  logicalId: 'Thing',
  type,
  physicalId,
  attribute,
  region: 'us-east-1',
});

async function launch(bootMs: number): Promise<string> {
  await setLatency(sandbox.current.url, { 'AWS::EC2::Instance': { create: bootMs } });
  const answer = await ec2.send(
    new RunInstancesCommand({ ImageId: 'ami-12345678', InstanceType: 't3.micro', MinCount: 1, MaxCount: 1 }),
  );
  return answer.Instances![0]!.InstanceId!;
}

async function ccCreate(type: string, desired: Record<string, unknown>): Promise<string> {
  const accepted = await cc.send(
    new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(desired) }),
  );
  const { event } = await settle(cc, accepted.ProgressEvent!);
  expect(event.OperationStatus).toBe('SUCCESS');
  return event.Identifier!;
}

describe('liveAttributeReader', () => {
  it('answers a pending instance at once under --no-wait', async () => {
    const instanceId = await launch(60_000);
    const answer = await reader().read(request('AWS::EC2::Instance', instanceId, 'PrivateIp'), {
      wait: false,
    });
    expect(answer).toEqual({ kind: 'unassigned', observed: 'pending', pending: true });
  });

  it('waits for a pending instance to run, then reads its address', async () => {
    const instanceId = await launch(1200);
    const answer = await reader().read(request('AWS::EC2::Instance', instanceId, 'PublicIp'), { wait: true });
    expect(answer.kind).toBe('value');
    expect((answer as { value: string }).value).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('reads the zone of a pending instance without waiting (it is known at launch)', async () => {
    const instanceId = await launch(60_000);
    const answer = await reader().read(request('AWS::EC2::Instance', instanceId, 'AvailabilityZone'), {
      wait: false,
    });
    expect(answer).toEqual({ kind: 'value', value: expect.stringMatching(/^us-east-1[a-f]$/) });
  });

  it('answers a failed read with its error class and the AWS error', async () => {
    const answer = await reader().read(request('AWS::EC2::Instance', 'i-0123456789abcdef0', 'PrivateIp'), {
      wait: true,
    });
    expect(answer).toMatchObject({
      kind: 'failed',
      operation: 'ec2:DescribeInstances',
      errorClass: 'InvalidInstanceID.NotFound',
    });
    expect(String((answer as { cause: Error }).cause.message)).toContain('i-0123456789abcdef0');
  });

  it("reads a VPC's default security group", async () => {
    const vpcId = await ccCreate('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' });
    const groups = await ec2.send(
      new DescribeSecurityGroupsCommand({
        Filters: [
          { Name: 'vpc-id', Values: [vpcId] },
          { Name: 'group-name', Values: ['default'] },
        ],
      }),
    );
    const answer = await reader().read(request('AWS::EC2::VPC', vpcId, 'DefaultSecurityGroup'), {
      wait: true,
    });
    expect(answer).toEqual({ kind: 'value', value: groups.SecurityGroups![0]!.GroupId });
  });

  it("reads a VPC's default network ACL and a subnet's association with it", async () => {
    const vpcId = await ccCreate('AWS::EC2::VPC', { CidrBlock: '10.2.0.0/16' });
    const subnetId = await ccCreate('AWS::EC2::Subnet', { VpcId: vpcId, CidrBlock: '10.2.0.0/24' });
    const acls = await ec2.send(
      new DescribeNetworkAclsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }),
    );
    expect(acls.NetworkAcls).toHaveLength(1);
    const acl = acls.NetworkAcls![0]!;
    const association = acl.Associations!.find((a) => a.SubnetId === subnetId)!;
    expect(await reader().read(request('AWS::EC2::VPC', vpcId, 'DefaultNetworkAcl'), { wait: true })).toEqual(
      { kind: 'value', value: acl.NetworkAclId },
    );
    expect(
      await reader().read(request('AWS::EC2::Subnet', subnetId, 'NetworkAclAssociationId'), { wait: true }),
    ).toEqual({ kind: 'value', value: association.NetworkAclAssociationId });
  });

  it("reads a VPC's IPv6 blocks: none before its VPCCidrBlock, the associated /56 after", async () => {
    const vpcId = await ccCreate('AWS::EC2::VPC', { CidrBlock: '10.1.0.0/16' });
    const read = () => reader().read(request('AWS::EC2::VPC', vpcId, 'Ipv6CidrBlocks'), { wait: true });
    expect(await read()).toEqual({ kind: 'value', value: [] });
    await ccCreate('AWS::EC2::VPCCidrBlock', { VpcId: vpcId, AmazonProvidedIpv6CidrBlock: true });
    const answer = await read();
    const vpc = (await ec2.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs![0]!;
    const associated = vpc.Ipv6CidrBlockAssociationSet!.map((association) => association.Ipv6CidrBlock);
    expect(associated).toEqual([
      expect.stringMatching(/^2600:1f[0-9a-f]{2}:[0-9a-f]{1,4}:[1-9a-f][0-9a-f]?00::\/56$/),
    ]);
    expect(answer).toEqual({ kind: 'value', value: associated });
  });

  it("reads a security group's VpcId: the default VPC's for a group declared without one", async () => {
    const groupId = await ccCreate('AWS::EC2::SecurityGroup', { GroupDescription: 'no vpc' });
    const vpcs = await ec2.send(
      new DescribeVpcsCommand({ Filters: [{ Name: 'isDefault', Values: ['true'] }] }),
    );
    const answer = await reader().read(request('AWS::EC2::SecurityGroup', groupId, 'VpcId'), { wait: true });
    expect(answer).toEqual({ kind: 'value', value: vpcs.Vpcs![0]!.VpcId });
  });

  it("reads a CloudFront distribution's domain name, one made through Cloud Control too", async () => {
    const id = await ccCreate('AWS::CloudFront::Distribution', {
      DistributionConfig: { Enabled: true, Comment: 'made by cloud control' },
    });
    const model = JSON.parse(
      (await cc.send(new GetResourceCommand({ TypeName: 'AWS::CloudFront::Distribution', Identifier: id })))
        .ResourceDescription!.Properties!,
    ) as { DomainName: string };
    expect(model.DomainName).toMatch(/^d[a-z0-9]{13}\.cloudfront\.net$/);
    const answer = await reader().read(request('AWS::CloudFront::Distribution', id, 'DomainName'), {
      wait: true,
    });
    expect(answer).toEqual({ kind: 'value', value: model.DomainName });
  });
});

describe('the sandbox CloudFront', () => {
  it('creates, gets, lists and deletes a distribution, refusing a delete while it is enabled', async () => {
    const config = (enabled: boolean) => ({
      CallerReference: 'ref-1',
      Comment: 'sandbox',
      Enabled: enabled,
      Origins: { Quantity: 1, Items: [{ Id: 'o1', DomainName: 'example.com' }] },
      DefaultCacheBehavior: { TargetOriginId: 'o1', ViewerProtocolPolicy: 'allow-all' },
    });
    const created = await cloudFront.send(
      new CreateDistributionCommand({ DistributionConfig: config(true) as never }),
    );
    const id = created.Distribution!.Id!;
    expect(id).toMatch(/^E[A-Z0-9]{13}$/);
    expect(created.Distribution!.DomainName).toMatch(/\.cloudfront\.net$/);
    expect(created.Distribution!.DistributionConfig?.Origins?.Items?.[0]?.DomainName).toBe('example.com');
    const got = await cloudFront.send(new GetDistributionCommand({ Id: id }));
    expect(got.Distribution!.DomainName).toBe(created.Distribution!.DomainName);
    expect(got.ETag).toBe(created.ETag);
    const listed = await cloudFront.send(new ListDistributionsCommand({}));
    expect(listed.DistributionList!.Items!.map((item) => item.Id)).toContain(id);

    const enabled = await cloudFront
      .send(new DeleteDistributionCommand({ Id: id, IfMatch: got.ETag! }))
      .catch((error: Error) => error);
    expect((enabled as Error).name).toBe('DistributionNotDisabled');
    const missing = await cloudFront
      .send(new GetDistributionCommand({ Id: 'ENOTADISTRIBUT' }))
      .catch((error: Error) => error);
    expect((missing as Error).name).toBe('NoSuchDistribution');

    const disabled = await cloudFront.send(
      new CreateDistributionCommand({
        DistributionConfig: { ...config(false), CallerReference: 'ref-2' } as never,
      }),
    );
    const stale = await cloudFront
      .send(new DeleteDistributionCommand({ Id: disabled.Distribution!.Id!, IfMatch: 'E0000000000000' }))
      .catch((error: Error) => error);
    expect((stale as Error).name).toBe('PreconditionFailed');
    await cloudFront.send(
      new DeleteDistributionCommand({ Id: disabled.Distribution!.Id!, IfMatch: disabled.ETag! }),
    );
    const after = await cloudFront.send(new ListDistributionsCommand({}));
    expect(after.DistributionList!.Items!.map((item) => item.Id)).not.toContain(disabled.Distribution!.Id);
  });
});
