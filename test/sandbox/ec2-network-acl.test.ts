import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListResourcesCommand, type CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import {
  CreateNetworkAclCommand,
  CreateNetworkAclEntryCommand,
  CreateSubnetCommand,
  CreateTagsCommand,
  CreateVpcCommand,
  DeleteNetworkAclCommand,
  DeleteNetworkAclEntryCommand,
  DeleteSubnetCommand,
  DeleteVpcCommand,
  DescribeNetworkAclsCommand,
  DescribeSubnetsCommand,
  EC2Client,
  paginateDescribeNetworkAcls,
  ReplaceNetworkAclAssociationCommand,
  ReplaceNetworkAclEntryCommand,
  type NetworkAcl,
  type NetworkAclEntry,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlCalls } from './cloudcontrol-calls.js';
import { cloudControlClient, ec2Client, failure } from './helpers.js';

let sandbox: Sandbox;
let cc: CloudControlClient;
const clients: EC2Client[] = [];
const calls = cloudControlCalls(() => cc);

function ec2(region = 'us-east-1'): EC2Client {
  const client = ec2Client(sandbox, region);
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

async function ccCreate(type: string, desired: Record<string, unknown>): Promise<string> {
  const event = await calls.create(type, desired);
  expect(event.OperationStatus).toBe('SUCCESS');
  return event.Identifier!;
}

async function newVpc(client: EC2Client, cidr: string): Promise<string> {
  return (await client.send(new CreateVpcCommand({ CidrBlock: cidr }))).Vpc!.VpcId!;
}

async function newSubnet(client: EC2Client, vpcId: string, cidr: string): Promise<string> {
  return (await client.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr }))).Subnet!.SubnetId!;
}

async function aclsOf(client: EC2Client, vpcId: string): Promise<NetworkAcl[]> {
  return (
    await client.send(new DescribeNetworkAclsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }))
  ).NetworkAcls!;
}

async function acl(client: EC2Client, id: string): Promise<NetworkAcl> {
  return (await client.send(new DescribeNetworkAclsCommand({ NetworkAclIds: [id] }))).NetworkAcls![0]!;
}

/** Entries as `egress rule action protocol cidr [ports]`, in the order EC2 lists them. */
const rules = (entries: NetworkAclEntry[] | undefined): string[] =>
  (entries ?? []).map(
    (e) =>
      `${e.Egress ? 'out' : 'in'} ${e.RuleNumber} ${e.RuleAction} ${e.Protocol} ${e.CidrBlock ?? e.Ipv6CidrBlock}` +
      (e.PortRange ? ` ${e.PortRange.From}-${e.PortRange.To}` : ''),
  );

const AWS_DEFAULT_RULES = [
  'out 100 allow -1 0.0.0.0/0',
  'out 32767 deny -1 0.0.0.0/0',
  'in 100 allow -1 0.0.0.0/0',
  'in 32767 deny -1 0.0.0.0/0',
];

describe('EC2 network ACLs: the default ACL made with each VPC', () => {
  it("gives a new VPC one default ACL with AWS's entries, and puts each new subnet in it", async () => {
    const client = ec2();
    const vpcId = await newVpc(client, '10.20.0.0/16');
    const [only, ...others] = await aclsOf(client, vpcId);
    expect(others).toEqual([]);
    expect(only!.NetworkAclId).toMatch(/^acl-[0-9a-f]{17}$/);
    expect(only!.IsDefault).toBe(true);
    expect(only!.OwnerId).toBe('000000000000');
    expect(rules(only!.Entries)).toEqual(AWS_DEFAULT_RULES);
    expect(only!.Associations).toEqual([]);

    const subnetId = await newSubnet(client, vpcId, '10.20.1.0/24');
    const [holding] = (
      await client.send(
        new DescribeNetworkAclsCommand({ Filters: [{ Name: 'association.subnet-id', Values: [subnetId] }] }),
      )
    ).NetworkAcls!;
    expect(holding!.NetworkAclId).toBe(only!.NetworkAclId);
    expect(holding!.Associations).toEqual([
      {
        NetworkAclAssociationId: expect.stringMatching(/^aclassoc-[0-9a-f]{17}$/),
        NetworkAclId: only!.NetworkAclId,
        SubnetId: subnetId,
      },
    ]);
  });

  it("is the ACL Cloud Control's VPC.DefaultNetworkAcl and Subnet.NetworkAclAssociationId name", async () => {
    const client = ec2();
    const vpcId = await ccCreate('AWS::EC2::VPC', { CidrBlock: '10.21.0.0/16' });
    const subnetId = await ccCreate('AWS::EC2::Subnet', { VpcId: vpcId, CidrBlock: '10.21.0.0/24' });
    const defaultAcl = (await calls.properties('AWS::EC2::VPC', vpcId)).DefaultNetworkAcl;
    const associationId = (await calls.properties('AWS::EC2::Subnet', subnetId)).NetworkAclAssociationId;
    const [only] = (
      await client.send(
        new DescribeNetworkAclsCommand({
          Filters: [
            { Name: 'vpc-id', Values: [vpcId] },
            { Name: 'default', Values: ['true'] },
          ],
        }),
      )
    ).NetworkAcls!;
    expect(only!.NetworkAclId).toBe(defaultAcl);
    expect(only!.Associations!.map((a) => [a.NetworkAclAssociationId, a.SubnetId])).toEqual([
      [associationId, subnetId],
    ]);
  });

  it('adds IPv6 entries to the default ACL of a VPC with an IPv6 block', async () => {
    const client = ec2();
    const vpcId = await newVpc(client, '10.22.0.0/16');
    await ccCreate('AWS::EC2::VPCCidrBlock', { VpcId: vpcId, AmazonProvidedIpv6CidrBlock: true });
    const [only] = await aclsOf(client, vpcId);
    expect(rules(only!.Entries)).toEqual([
      'out 100 allow -1 0.0.0.0/0',
      'out 101 allow -1 ::/0',
      'out 32767 deny -1 0.0.0.0/0',
      'out 32768 deny -1 ::/0',
      'in 100 allow -1 0.0.0.0/0',
      'in 101 allow -1 ::/0',
      'in 32767 deny -1 0.0.0.0/0',
      'in 32768 deny -1 ::/0',
    ]);
  });

  it('gives the default VPC a default ACL holding its subnets', async () => {
    const client = ec2('eu-west-2');
    const subnets = (
      await client.send(
        new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
      )
    ).Subnets!;
    const [only, ...others] = await aclsOf(client, subnets[0]!.VpcId!);
    expect(others).toEqual([]);
    expect(only!.IsDefault).toBe(true);
    expect(only!.Associations!.map((a) => a.SubnetId).sort()).toEqual(subnets.map((s) => s.SubnetId).sort());
  });

  it('refuses to delete a default ACL, and lets its entries be changed, deleted and tagged', async () => {
    const client = ec2();
    const vpcId = await newVpc(client, '10.23.0.0/16');
    const aclId = (await aclsOf(client, vpcId))[0]!.NetworkAclId!;
    const refused = await failure(client.send(new DeleteNetworkAclCommand({ NetworkAclId: aclId })));
    expect(refused.name).toBe('InvalidParameterValue');
    expect(refused.error.message).toContain(aclId);

    await client.send(
      new ReplaceNetworkAclEntryCommand({
        NetworkAclId: aclId,
        RuleNumber: 100,
        Egress: false,
        Protocol: '6',
        RuleAction: 'allow',
        CidrBlock: '10.0.0.0/8',
        PortRange: { From: 443, To: 443 },
      }),
    );
    await client.send(
      new DeleteNetworkAclEntryCommand({ NetworkAclId: aclId, RuleNumber: 100, Egress: true }),
    );
    await client.send(
      new CreateNetworkAclEntryCommand({
        NetworkAclId: aclId,
        RuleNumber: 50,
        Egress: false,
        Protocol: 'icmp',
        RuleAction: 'deny',
        CidrBlock: '192.168.0.0/16',
        IcmpTypeCode: { Type: 8, Code: -1 },
      }),
    );
    await client.send(new CreateTagsCommand({ Resources: [aclId], Tags: [{ Key: 'Name', Value: 'edge' }] }));
    const changed = await acl(client, aclId);
    expect(rules(changed.Entries)).toEqual([
      'out 32767 deny -1 0.0.0.0/0',
      'in 50 deny 1 192.168.0.0/16',
      'in 100 allow 6 10.0.0.0/8 443-443',
      'in 32767 deny -1 0.0.0.0/0',
    ]);
    expect(changed.Entries!.find((e) => e.RuleNumber === 50)!.IcmpTypeCode).toEqual({ Type: 8, Code: -1 });
    expect(changed.Tags).toEqual([{ Key: 'Name', Value: 'edge' }]);
    const again = await failure(
      client.send(new DeleteNetworkAclEntryCommand({ NetworkAclId: aclId, RuleNumber: 100, Egress: true })),
    );
    expect(again.name).toBe('InvalidNetworkAclEntry.NotFound');
    const catchAll = await failure(
      client.send(
        new DeleteNetworkAclEntryCommand({ NetworkAclId: aclId, RuleNumber: 32767, Egress: false }),
      ),
    );
    expect(catchAll.name).toBe('InvalidParameterValue');
  });
});

describe('EC2 network ACLs made by calls', () => {
  it('creates an ACL, its entries (one per direction and rule number), and replaces and deletes them', async () => {
    const client = ec2();
    const vpcId = await newVpc(client, '10.30.0.0/16');
    const made = (
      await client.send(
        new CreateNetworkAclCommand({
          VpcId: vpcId,
          TagSpecifications: [{ ResourceType: 'network-acl', Tags: [{ Key: 'Name', Value: 'web' }] }],
        }),
      )
    ).NetworkAcl!;
    expect(made.NetworkAclId).toMatch(/^acl-[0-9a-f]{17}$/);
    expect(made.IsDefault).toBe(false);
    expect(made.VpcId).toBe(vpcId);
    expect(made.Tags).toEqual([{ Key: 'Name', Value: 'web' }]);
    expect(rules(made.Entries)).toEqual(['out 32767 deny -1 0.0.0.0/0', 'in 32767 deny -1 0.0.0.0/0']);
    const aclId = made.NetworkAclId!;

    const entry = {
      NetworkAclId: aclId,
      RuleNumber: 100,
      Egress: false,
      Protocol: '6',
      RuleAction: 'allow' as const,
      CidrBlock: '0.0.0.0/0',
      PortRange: { From: 443, To: 443 },
    };
    await client.send(new CreateNetworkAclEntryCommand(entry));
    const duplicate = await failure(
      client.send(new CreateNetworkAclEntryCommand({ ...entry, RuleAction: 'deny' })),
    );
    expect(duplicate.name).toBe('NetworkAclEntryAlreadyExists');
    expect(duplicate.status).toBe(400);
    await client.send(
      new CreateNetworkAclEntryCommand({ ...entry, Egress: true, Protocol: '-1', PortRange: undefined }),
    );
    await client.send(
      new CreateNetworkAclEntryCommand({
        ...entry,
        RuleNumber: 90,
        RuleAction: 'deny',
        CidrBlock: undefined,
        Ipv6CidrBlock: '::/0',
        PortRange: { From: 22, To: 22 },
      }),
    );
    await client.send(
      new ReplaceNetworkAclEntryCommand({
        ...entry,
        PortRange: { From: 80, To: 80 },
        CidrBlock: '10.0.0.0/16',
      }),
    );
    expect(rules((await acl(client, aclId)).Entries)).toEqual([
      'out 100 allow -1 0.0.0.0/0',
      'out 32767 deny -1 0.0.0.0/0',
      'in 90 deny 6 ::/0 22-22',
      'in 100 allow 6 10.0.0.0/16 80-80',
      'in 32767 deny -1 0.0.0.0/0',
    ]);
    const absent = await failure(
      client.send(new ReplaceNetworkAclEntryCommand({ ...entry, RuleNumber: 200 })),
    );
    expect(absent.name).toBe('InvalidNetworkAclEntry.NotFound');
    await client.send(
      new DeleteNetworkAclEntryCommand({ NetworkAclId: aclId, RuleNumber: 90, Egress: false }),
    );
    expect(rules((await acl(client, aclId)).Entries)).not.toContain('in 90 deny 6 ::/0 22-22');

    // An ACL other than its default holds the VPC, as in EC2; the ACL's entries go with it.
    const held = await failure(client.send(new DeleteVpcCommand({ VpcId: vpcId })));
    expect(held.name).toBe('DependencyViolation');
    await client.send(new DeleteNetworkAclCommand({ NetworkAclId: aclId }));
    const left = await cc.send(new ListResourcesCommand({ TypeName: 'AWS::EC2::NetworkAclEntry' }));
    expect(left.ResourceDescriptions!.map((d) => JSON.parse(d.Properties!).NetworkAclId)).not.toContain(
      aclId,
    );
    await client.send(new DeleteVpcCommand({ VpcId: vpcId }));
  });

  it('moves a subnet into an ACL and back, refusing to delete the ACL while the subnet is in it', async () => {
    const client = ec2();
    const vpcId = await newVpc(client, '10.31.0.0/16');
    const subnetId = await newSubnet(client, vpcId, '10.31.1.0/24');
    const defaultAcl = (await aclsOf(client, vpcId))[0]!;
    const firstAssociation = defaultAcl.Associations![0]!.NetworkAclAssociationId!;
    const aclId = (await client.send(new CreateNetworkAclCommand({ VpcId: vpcId }))).NetworkAcl!
      .NetworkAclId!;

    const moved = await client.send(
      new ReplaceNetworkAclAssociationCommand({ AssociationId: firstAssociation, NetworkAclId: aclId }),
    );
    expect(moved.NewAssociationId).toMatch(/^aclassoc-[0-9a-f]{17}$/);
    expect(moved.NewAssociationId).not.toBe(firstAssociation);
    expect((await acl(client, aclId)).Associations).toEqual([
      { NetworkAclAssociationId: moved.NewAssociationId, NetworkAclId: aclId, SubnetId: subnetId },
    ]);
    expect((await acl(client, defaultAcl.NetworkAclId!)).Associations).toEqual([]);
    const stale = await failure(
      client.send(
        new ReplaceNetworkAclAssociationCommand({ AssociationId: firstAssociation, NetworkAclId: aclId }),
      ),
    );
    expect(stale.name).toBe('InvalidAssociationID.NotFound');

    const held = await failure(client.send(new DeleteNetworkAclCommand({ NetworkAclId: aclId })));
    expect(held.name).toBe('DependencyViolation');
    const vpcHeld = await failure(client.send(new DeleteVpcCommand({ VpcId: vpcId })));
    expect(vpcHeld.name).toBe('DependencyViolation');

    const back = await client.send(
      new ReplaceNetworkAclAssociationCommand({
        AssociationId: moved.NewAssociationId,
        NetworkAclId: defaultAcl.NetworkAclId,
      }),
    );
    expect(back.NewAssociationId).not.toBe(moved.NewAssociationId);
    expect((await acl(client, defaultAcl.NetworkAclId!)).Associations).toEqual([
      {
        NetworkAclAssociationId: back.NewAssociationId,
        NetworkAclId: defaultAcl.NetworkAclId,
        SubnetId: subnetId,
      },
    ]);
    await client.send(new DeleteNetworkAclCommand({ NetworkAclId: aclId }));
    const gone = await failure(client.send(new DescribeNetworkAclsCommand({ NetworkAclIds: [aclId] })));
    expect(gone.name).toBe('InvalidNetworkAclID.NotFound');

    // The VPC's default ACL goes with the VPC.
    await client.send(new DeleteSubnetCommand({ SubnetId: subnetId }));
    await client.send(new DeleteVpcCommand({ VpcId: vpcId }));
    const defaultGone = await failure(
      client.send(new DescribeNetworkAclsCommand({ NetworkAclIds: [defaultAcl.NetworkAclId!] })),
    );
    expect(defaultGone.name).toBe('InvalidNetworkAclID.NotFound');
  });

  it("refuses unknown ids with EC2's codes", async () => {
    const client = ec2();
    const vpcId = await newVpc(client, '10.32.0.0/16');
    const aclId = (await client.send(new CreateNetworkAclCommand({ VpcId: vpcId }))).NetworkAcl!
      .NetworkAclId!;
    const unknownAcl = 'acl-0123456789abcdef0';
    const cases: Array<[Promise<unknown>, string]> = [
      [
        client.send(new DescribeNetworkAclsCommand({ NetworkAclIds: [aclId, unknownAcl] })),
        'InvalidNetworkAclID.NotFound',
      ],
      [
        client.send(new DeleteNetworkAclCommand({ NetworkAclId: unknownAcl })),
        'InvalidNetworkAclID.NotFound',
      ],
      [
        client.send(
          new CreateNetworkAclEntryCommand({
            NetworkAclId: unknownAcl,
            RuleNumber: 10,
            Egress: false,
            Protocol: '-1',
            RuleAction: 'allow',
            CidrBlock: '0.0.0.0/0',
          }),
        ),
        'InvalidNetworkAclID.NotFound',
      ],
      [client.send(new CreateNetworkAclCommand({ VpcId: 'vpc-0123456789abcdef0' })), 'InvalidVpcID.NotFound'],
      [
        client.send(
          new ReplaceNetworkAclAssociationCommand({
            AssociationId: 'aclassoc-0123456789abcdef0',
            NetworkAclId: aclId,
          }),
        ),
        'InvalidAssociationID.NotFound',
      ],
      [
        client.send(new DeleteNetworkAclEntryCommand({ NetworkAclId: aclId, RuleNumber: 5, Egress: true })),
        'InvalidNetworkAclEntry.NotFound',
      ],
    ];
    for (const [call, code] of cases) {
      const refused = await failure(call);
      expect(refused.name).toBe(code);
      expect(refused.status).toBe(400);
    }
  });
});

describe("EC2 network ACLs Cloud Control made (the CDK's ec2.NetworkAcl)", () => {
  it('lists an ACL, its entries and its subnet association made through Cloud Control', async () => {
    const client = ec2();
    const vpcId = await ccCreate('AWS::EC2::VPC', { CidrBlock: '10.50.0.0/16' });
    const subnetId = await ccCreate('AWS::EC2::Subnet', { VpcId: vpcId, CidrBlock: '10.50.1.0/24' });
    const aclId = await ccCreate('AWS::EC2::NetworkAcl', {
      VpcId: vpcId,
      Tags: [{ Key: 'Name', Value: 'from-cdk' }],
    });
    expect(aclId).toMatch(/^acl-[0-9a-f]{17}$/);
    await ccCreate('AWS::EC2::NetworkAclEntry', {
      NetworkAclId: aclId,
      RuleNumber: 100,
      Protocol: 6,
      RuleAction: 'allow',
      Egress: false,
      CidrBlock: '0.0.0.0/0',
      PortRange: { From: 443, To: 443 },
    });
    const associationId = await ccCreate('AWS::EC2::SubnetNetworkAclAssociation', {
      SubnetId: subnetId,
      NetworkAclId: aclId,
    });
    expect(associationId).toMatch(/^aclassoc-[0-9a-f]{17}$/);

    const made = await acl(client, aclId);
    expect(made.IsDefault).toBe(false);
    expect(made.Tags).toEqual([{ Key: 'Name', Value: 'from-cdk' }]);
    expect(rules(made.Entries)).toEqual([
      'out 32767 deny -1 0.0.0.0/0',
      'in 100 allow 6 0.0.0.0/0 443-443',
      'in 32767 deny -1 0.0.0.0/0',
    ]);
    expect(made.Associations).toEqual([
      { NetworkAclAssociationId: associationId, NetworkAclId: aclId, SubnetId: subnetId },
    ]);
    const defaultAcl = String((await calls.properties('AWS::EC2::VPC', vpcId)).DefaultNetworkAcl);
    expect((await acl(client, defaultAcl)).Associations).toEqual([]);
  });
});

describe('DescribeNetworkAcls', () => {
  it('filters by id, VPC, default, subnet and tag, and pages with MaxResults', async () => {
    const client = ec2('eu-west-1');
    const vpcId = await newVpc(client, '10.40.0.0/16');
    const subnetId = await newSubnet(client, vpcId, '10.40.1.0/24');
    const made: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const created = await client.send(
        new CreateNetworkAclCommand({
          VpcId: vpcId,
          TagSpecifications: [{ ResourceType: 'network-acl', Tags: [{ Key: 'Name', Value: `acl-${name}` }] }],
        }),
      );
      made.push(created.NetworkAcl!.NetworkAclId!);
    }
    const ids = async (filters: Array<{ Name: string; Values: string[] }>) =>
      (await client.send(new DescribeNetworkAclsCommand({ Filters: filters }))).NetworkAcls!.map(
        (a) => a.NetworkAclId,
      );
    expect(
      await ids([
        { Name: 'vpc-id', Values: [vpcId] },
        { Name: 'default', Values: ['false'] },
      ]),
    ).toEqual(made);
    expect(await ids([{ Name: 'network-acl-id', Values: [made[2]!] }])).toEqual([made[2]]);
    expect(await ids([{ Name: 'tag:Name', Values: ['acl-b', 'acl-e'] }])).toEqual([made[1], made[4]]);
    const defaultOfVpc = await ids([{ Name: 'association.subnet-id', Values: [subnetId] }]);
    expect(defaultOfVpc).toHaveLength(1);
    expect(defaultOfVpc[0]).not.toBe(undefined);
    expect(made).not.toContain(defaultOfVpc[0]);
    const unknownFilter = await failure(
      client.send(new DescribeNetworkAclsCommand({ Filters: [{ Name: 'no-such-filter', Values: ['x'] }] })),
    );
    expect(unknownFilter.name).toBe('InvalidParameterValue');

    // Eight in the region: the default VPC's and this VPC's default ACLs, and the six made.
    const first = await client.send(new DescribeNetworkAclsCommand({ MaxResults: 5 }));
    expect(first.NetworkAcls).toHaveLength(5);
    expect(first.NextToken).toBeDefined();
    const everything: string[] = [];
    for await (const page of paginateDescribeNetworkAcls({ client, pageSize: 5 }, {})) {
      everything.push(...page.NetworkAcls!.map((a) => a.NetworkAclId!));
    }
    expect(everything).toHaveLength(8);
    expect(new Set(everything).size).toBe(8);
    expect(everything).toEqual(expect.arrayContaining([...made, defaultOfVpc[0]]));
    const tooMany = await failure(client.send(new DescribeNetworkAclsCommand({ MaxResults: 2 })));
    expect(tooMany.name).toBe('InvalidParameterValue');
  });
});

describe('EC2 network ACLs across restarts', () => {
  it("keeps a default ACL's deleted entries and tags in the data dir", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cdkd-ec2-acl-'));
    const clientOf = (running: Sandbox) => ec2Client(running, 'eu-west-3');
    try {
      const first = await startSandbox({ port: 0, dataDir });
      const before = clientOf(first);
      const vpcId = await newVpc(before, '10.60.0.0/16');
      const aclId = (await aclsOf(before, vpcId))[0]!.NetworkAclId!;
      await before.send(
        new DeleteNetworkAclEntryCommand({ NetworkAclId: aclId, RuleNumber: 100, Egress: true }),
      );
      await before.send(new CreateTagsCommand({ Resources: [aclId], Tags: [{ Key: 'k', Value: 'v' }] }));
      before.destroy();
      await first.stop();

      const second = await startSandbox({ port: 0, dataDir });
      const after = clientOf(second);
      const again = await acl(after, aclId);
      expect(rules(again.Entries)).toEqual(
        AWS_DEFAULT_RULES.filter((rule) => rule !== 'out 100 allow -1 0.0.0.0/0'),
      );
      expect(again.Tags).toEqual([{ Key: 'k', Value: 'v' }]);
      after.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
