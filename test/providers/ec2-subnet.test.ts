import { GetResourceCommand, UpdateResourceCommand } from '@aws-sdk/client-cloudcontrol';
import {
  CreateSubnetCommand,
  CreateTagsCommand,
  DeleteSubnetCommand,
  DeleteTagsCommand,
  DescribeSubnetsCommand,
  EC2Client,
  ModifySubnetAttributeCommand,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { driftOf } from '../../src/engine/drift/drift-rules.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { EC2_REF_ATTRIBUTES } from '../../src/providers/ec2/ref-attributes.js';
import { SubnetProvider } from '../../src/providers/ec2/subnet.js';
import { TOKEN_TAG } from '../../src/providers/physical-names.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { registerSdkProviders } from '../../src/providers/sdk-providers.js';
import { useSandbox } from '../helpers/sandbox.js';

useSandbox();
const type = 'AWS::EC2::Subnet';
const REGION = 'us-east-1';
const subnets = new SubnetProvider();
const cc = new CloudControlProvider();
let context: ProviderContext;
let ec2: EC2Client;
let vpcId: string;

beforeAll(async () => {
  const clients = new AwsClients({ region: REGION });
  context = { clients, accountId: '000000000000', region: REGION, stackName: 'SubnetStack' };
  ec2 = await clients.client(EC2Client, REGION);
  const vpc = await cc.create(
    { logicalId: 'Vpc', type: 'AWS::EC2::VPC', properties: { CidrBlock: '10.0.0.0/16' } },
    context,
  );
  vpcId = vpc.physicalId;
});

const liveSubnet = async (subnetId: string) =>
  (await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] }))).Subnets![0]!;

const rejection = async (call: Promise<unknown>) => {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { name?: string } | undefined;
  return error?.name;
};

describe('the sandbox: EC2 subnet calls', () => {
  it('creates a subnet Cloud Control reads and updates by the same id, and DescribeSubnets lists', async () => {
    const { Subnet } = await ec2.send(
      new CreateSubnetCommand({
        VpcId: vpcId,
        CidrBlock: '10.0.0.0/24',
        AvailabilityZone: 'us-east-1b',
        TagSpecifications: [{ ResourceType: 'subnet', Tags: [{ Key: 'team', Value: 'a' }] }],
      }),
    );
    expect(Subnet).toMatchObject({
      VpcId: vpcId,
      CidrBlock: '10.0.0.0/24',
      AvailabilityZone: 'us-east-1b',
      AvailabilityZoneId: 'use1-az2',
      MapPublicIpOnLaunch: false,
      Tags: [{ Key: 'team', Value: 'a' }],
    });
    const subnetId = Subnet!.SubnetId!;
    expect(subnetId).toMatch(/^subnet-[0-9a-f]{17}$/);

    const ccClient = await context.clients.cloudControl(REGION);
    const model = async () =>
      JSON.parse(
        (await ccClient.send(new GetResourceCommand({ TypeName: type, Identifier: subnetId })))
          .ResourceDescription!.Properties!,
      ) as Record<string, unknown>;
    expect(await model()).toMatchObject({ SubnetId: subnetId, VpcId: vpcId, CidrBlock: '10.0.0.0/24' });

    await ec2.send(
      new ModifySubnetAttributeCommand({ SubnetId: subnetId, MapPublicIpOnLaunch: { Value: true } }),
    );
    await ec2.send(new CreateTagsCommand({ Resources: [subnetId], Tags: [{ Key: 'env', Value: 'dev' }] }));
    await ec2.send(new DeleteTagsCommand({ Resources: [subnetId], Tags: [{ Key: 'team' }] }));
    expect(await liveSubnet(subnetId)).toMatchObject({
      MapPublicIpOnLaunch: true,
      Tags: [{ Key: 'env', Value: 'dev' }],
    });
    expect(await model()).toMatchObject({ MapPublicIpOnLaunch: true, Tags: [{ Key: 'env', Value: 'dev' }] });

    await ccClient.send(
      new UpdateResourceCommand({
        TypeName: type,
        Identifier: subnetId,
        PatchDocument: JSON.stringify([{ op: 'replace', path: '/MapPublicIpOnLaunch', value: false }]),
      }),
    );
    await expect
      .poll(async () => (await liveSubnet(subnetId)).MapPublicIpOnLaunch, { timeout: 60_000 })
      .toBe(false);

    await ec2.send(new DeleteSubnetCommand({ SubnetId: subnetId }));
    expect(await rejection(liveSubnet(subnetId))).toBe('InvalidSubnetID.NotFound');
  });

  it("answers AWS's error codes", async () => {
    const create = (input: { VpcId: string; CidrBlock: string; AvailabilityZone?: string }) =>
      rejection(ec2.send(new CreateSubnetCommand(input)));
    expect(await create({ VpcId: 'vpc-00000000000000000', CidrBlock: '10.0.1.0/24' })).toBe(
      'InvalidVpcID.NotFound',
    );
    expect(await create({ VpcId: vpcId, CidrBlock: '10.9.0.0/24' }).then((e) => e)).toBe(
      'InvalidSubnet.Range',
    );
    expect(await create({ VpcId: vpcId, CidrBlock: '10.0.1.0/29' })).toBe('InvalidSubnet.Range');
    expect(await create({ VpcId: vpcId, CidrBlock: '10.0.1.7/24' })).toBe('InvalidParameterValue');
    expect(
      await rejection(
        ec2.send(
          new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.0.1.0/24', AvailabilityZoneId: 'use1-az9' }),
        ),
      ),
    ).toBe('InvalidParameterValue');
    expect(
      await rejection(
        ec2.send(
          new CreateSubnetCommand({
            VpcId: vpcId,
            CidrBlock: '10.0.1.0/24',
            AvailabilityZone: 'us-east-1a',
            AvailabilityZoneId: 'use1-az2',
          }),
        ),
      ),
    ).toBe('InvalidParameterValue');
    await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.0.2.0/24' }));
    expect(await create({ VpcId: vpcId, CidrBlock: '10.0.2.128/25' })).toBe('InvalidSubnet.Conflict');
    expect(await create({ VpcId: vpcId, CidrBlock: '10.0.0.0/16' })).toBe('InvalidSubnet.Conflict');

    const missing = 'subnet-00000000000000000';
    expect(await rejection(ec2.send(new DeleteSubnetCommand({ SubnetId: missing })))).toBe(
      'InvalidSubnetID.NotFound',
    );
    expect(
      await rejection(
        ec2.send(
          new ModifySubnetAttributeCommand({ SubnetId: missing, MapPublicIpOnLaunch: { Value: true } }),
        ),
      ),
    ).toBe('InvalidSubnetID.NotFound');
    expect(
      await rejection(
        ec2.send(new CreateTagsCommand({ Resources: [missing], Tags: [{ Key: 'k', Value: 'v' }] })),
      ),
    ).toBe('InvalidSubnetID.NotFound');
  });

  it('refuses to delete a subnet an instance uses: DependencyViolation, until it is gone', async () => {
    const { Subnet } = await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.0.3.0/24' }));
    const { Instances } = await ec2.send(
      new RunInstancesCommand({
        ImageId: 'ami-12345678',
        MinCount: 1,
        MaxCount: 1,
        SubnetId: Subnet!.SubnetId!,
      }),
    );
    expect(await rejection(ec2.send(new DeleteSubnetCommand({ SubnetId: Subnet!.SubnetId! })))).toBe(
      'DependencyViolation',
    );
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [Instances![0]!.InstanceId!] }));
    await ec2.send(new DeleteSubnetCommand({ SubnetId: Subnet!.SubnetId! }));
  });
});

describe('AWS::EC2::Subnet through the SDK provider', () => {
  const base = () => ({
    VpcId: vpcId,
    CidrBlock: '10.0.10.0/24',
    AvailabilityZone: 'us-east-1a',
    MapPublicIpOnLaunch: true,
    Tags: [{ Key: 'Name', Value: 'public-a' }],
  });

  it('creates, updates in place keeping a tag added out of band, reads back and deletes', async () => {
    const properties = base();
    const created = await subnets.create(
      { logicalId: 'Public', type, properties, idempotencyToken: 'token-public' },
      context,
    );
    const subnetId = created.physicalId;
    expect(created).toMatchObject({
      attributes: {
        SubnetId: subnetId,
        VpcId: vpcId,
        CidrBlock: '10.0.10.0/24',
        AvailabilityZone: 'us-east-1a',
        AvailabilityZoneId: 'use1-az1',
        Ipv6CidrBlocks: [],
      },
      creationIdentity: { SubnetArn: `arn:aws:ec2:us-east-1:000000000000:subnet/${subnetId}` },
      observed: { MapPublicIpOnLaunch: true, AssignIpv6AddressOnCreation: false },
    });
    expect((await liveSubnet(subnetId)).Tags).toEqual([
      { Key: 'Name', Value: 'public-a' },
      { Key: TOKEN_TAG, Value: 'token-public' },
    ]);
    const request = { logicalId: 'Public', type, physicalId: subnetId };
    expect(
      driftOf(properties, (await subnets.read({ ...request, properties }, context))!.properties),
    ).toEqual([]);

    await ec2.send(new CreateTagsCommand({ Resources: [subnetId], Tags: [{ Key: 'oob', Value: '1' }] }));
    const next = { ...base(), MapPublicIpOnLaunch: false, Tags: [{ Key: 'env', Value: 'prod' }] };
    const updated = await subnets.update(
      { ...request, properties: next, previousProperties: properties },
      context,
    );
    expect(updated.physicalId).toBe(subnetId);
    const read = await subnets.read({ ...request, properties: next }, context);
    expect(read?.properties).toEqual({
      VpcId: vpcId,
      CidrBlock: '10.0.10.0/24',
      AvailabilityZone: 'us-east-1a',
      MapPublicIpOnLaunch: false,
      AssignIpv6AddressOnCreation: false,
      Tags: [
        { Key: 'oob', Value: '1' },
        { Key: 'env', Value: 'prod' },
      ],
    });

    await subnets.delete({ ...request, properties: next }, context);
    expect(await subnets.read({ ...request, properties: next }, context)).toBeUndefined();
    await subnets.delete({ ...request, properties: next }, context);
  });

  it('locates what a create made by its token, and a retried create adopts it', async () => {
    const properties = { ...base(), CidrBlock: '10.0.11.0/24' };
    const request = { logicalId: 'Located', type, properties, idempotencyToken: 'token-located' };
    expect(await subnets.locate(request, context)).toBe('none');
    const created = await subnets.create(request, context);
    expect(await subnets.locate(request, context)).toEqual({ physicalId: created.physicalId });
    expect(await subnets.locate({ ...request, idempotencyToken: undefined }, context)).toBe('unknown');
    // The first answer lost: the same create again finds its own subnet instead of failing on the CIDR.
    expect((await subnets.create(request, context)).physicalId).toBe(created.physicalId);
    await expect(
      subnets.create({ ...request, idempotencyToken: 'another-create' }, context),
    ).rejects.toMatchObject({ name: 'InvalidSubnet.Conflict' });
  });

  it('leaves AvailabilityZoneId and the other unsent properties to Cloud Control; replaces only for what it sends at create', () => {
    expect(subnets.uncoveredProperties(type, base())).toEqual([]);
    expect(
      subnets.uncoveredProperties(type, { ...base(), AvailabilityZoneId: 'use1-az1', EnableDns64: true }),
    ).toEqual(['AvailabilityZoneId', 'EnableDns64']);
    expect(
      subnets.canUpdateInPlace(type, ['MapPublicIpOnLaunch', 'AssignIpv6AddressOnCreation', 'Tags']),
    ).toBe(true);
    expect(subnets.canUpdateInPlace(type, ['CidrBlock'])).toBe(false);
    expect(subnets.canUpdateInPlace(type, ['Ipv6CidrBlock'])).toBe(false);
    expect(subnets.canUpdateInPlace(type, ['EnableDns64'])).toBe(true);
  });

  it('is registered, and a subnet gaining AvailabilityZoneId routes through Cloud Control', async () => {
    const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
    await registry.load([type]);
    expect(registry.route({ type, properties: base() }).provider).toBeInstanceOf(SubnetProvider);
    expect(
      registry.route({
        type,
        properties: { ...base(), AvailabilityZoneId: 'use1-az1' },
        recordedProperties: base(),
        recordedBy: 'sdk',
      }),
    ).toMatchObject({
      provisionedBy: 'cc-api',
      reason: 'uncovered-property',
      properties: ['AvailabilityZoneId'],
    });
  });

  it.each(Object.entries(EC2_REF_ATTRIBUTES))('Ref and GetAtt row %s', async (_type, row) => {
    const properties = { VpcId: vpcId, CidrBlock: '10.0.12.0/24', AvailabilityZone: 'us-east-1c' };
    const created = await subnets.create({ logicalId: 'Row', type, properties }, context);
    expect(row.ref).toBe('physicalId');
    expect(created.ref).toBeUndefined();
    const expected = Object.fromEntries(
      Object.entries(row.attributes).map(([name, shape]) => [
        name,
        shape
          .replace('{id}', created.physicalId)
          .replace('{vpc}', vpcId)
          .replace('{cidr}', '10.0.12.0/24')
          .replace('{zoneId}', 'use1-az3')
          .replace('{zone}', 'us-east-1c'),
      ]),
    );
    expect(created.attributes).toMatchObject(expected);
  });
});
