import { GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import {
  AllocateAddressCommand,
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  CreateVpcEndpointCommand,
  DeleteVpcCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DetachInternetGatewayCommand,
  EC2Client,
  ReleaseAddressCommand,
} from '@aws-sdk/client-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { EipProvider } from '../../src/providers/ec2/eip.js';
import {
  GatewayAttachmentProvider,
  InternetGatewayProvider,
} from '../../src/providers/ec2/internet-gateway.js';
import { NatGatewayProvider } from '../../src/providers/ec2/nat-gateway.js';
import { RouteProvider } from '../../src/providers/ec2/route.js';
import { RouteTableAssociationProvider, RouteTableProvider } from '../../src/providers/ec2/route-table.js';
import { SecurityGroupProvider } from '../../src/providers/ec2/security-group.js';
import { SecurityGroupRuleProvider } from '../../src/providers/ec2/security-group-rule.js';
import { SubnetProvider } from '../../src/providers/ec2/subnet.js';
import { VpcProvider } from '../../src/providers/ec2/vpc.js';
import { VpcEndpointProvider } from '../../src/providers/ec2/vpc-endpoint.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { setLatency } from './lambda-helpers.js';

const sandbox = useSandbox();
const REGION = 'us-east-1';
let context: ProviderContext;
let ec2: EC2Client;
const noWait = {
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 20))),
};

beforeAll(async () => {
  const clients = new AwsClients({ region: REGION });
  context = { clients, accountId: '000000000000', region: REGION, stackName: 'VpcSet' };
  ec2 = await clients.client(EC2Client, REGION);
});

const errorName = async (call: Promise<unknown>) =>
  (
    (await call.then(
      () => undefined,
      (e: unknown) => e,
    )) as { name?: string } | undefined
  )?.name;

const request = (logicalId: string, type: string, properties: Record<string, unknown>, token?: string) => ({
  logicalId,
  type,
  properties,
  ...(token && { idempotencyToken: token }),
});

describe("the sandbox: EC2's network calls and their error codes", () => {
  it('refuses to delete a VPC that holds a subnet (DependencyViolation), and the rest', async () => {
    const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.1.0.0/16' }))).Vpc!.VpcId!;
    await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.1.0.0/24' }));
    expect(await errorName(ec2.send(new DeleteVpcCommand({ VpcId: vpcId })))).toBe('DependencyViolation');
    expect(await errorName(ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/8' })))).toBe(
      'InvalidVpc.Range',
    );

    const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
    expect(
      await errorName(ec2.send(new DetachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }))),
    ).toBe('Gateway.NotAttached');
    await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }));
    expect(
      await errorName(ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }))),
    ).toBe('Resource.AlreadyAssociated');

    const rtb = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
    const route = { RouteTableId: rtb, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw };
    await ec2.send(new CreateRouteCommand(route));
    expect(await errorName(ec2.send(new CreateRouteCommand(route)))).toBe('RouteAlreadyExists');
    expect(
      await errorName(
        ec2.send(
          new CreateRouteCommand({
            ...route,
            DestinationCidrBlock: '10.9.0.0/16',
            GatewayId: undefined,
            NatGatewayId: 'nat-00000000000000000',
          }),
        ),
      ),
    ).toBe('InvalidNatGatewayID.NotFound');

    expect(
      await errorName(ec2.send(new ReleaseAddressCommand({ AllocationId: 'eipalloc-00000000000000000' }))),
    ).toBe('InvalidAllocationID.NotFound');
    await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'web', Description: 'web', VpcId: vpcId }));
    expect(
      await errorName(
        ec2.send(new CreateSecurityGroupCommand({ GroupName: 'web', Description: 'web', VpcId: vpcId })),
      ),
    ).toBe('InvalidGroup.Duplicate');
    const group = (
      await ec2.send(
        new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: ['web'] }] }),
      )
    ).SecurityGroups![0]!;
    // A new group allows all egress, as AWS makes it.
    expect(group.IpPermissionsEgress).toEqual([
      expect.objectContaining({ IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] }),
    ]);
  });

  it('makes an endpoint to a regional or a global AWS service, refusing a name AWS does not serve', async () => {
    const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.2.0.0/16' }))).Vpc!.VpcId!;
    const endpoint = (ServiceName: string) =>
      ec2.send(new CreateVpcEndpointCommand({ VpcId: vpcId, ServiceName, VpcEndpointType: 'Interface' }));
    expect((await endpoint('com.amazonaws.us-east-1.sqs')).VpcEndpoint?.ServiceName).toBe(
      'com.amazonaws.us-east-1.sqs',
    );
    expect((await endpoint('com.amazonaws.s3-global.accesspoint')).VpcEndpoint?.ServiceName).toBe(
      'com.amazonaws.s3-global.accesspoint',
    );
    expect(await errorName(endpoint('com.amazonaws.nowhere.accesspoint'))).toBe('InvalidServiceName');
  });

  it('keeps a NAT gateway pending for the latency model, routes to it blackhole until it is available', async () => {
    await setLatency(sandbox.current.url, { 'AWS::EC2::NatGateway': { create: 1500 } });
    try {
      const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.2.0.0/16' }))).Vpc!.VpcId!;
      const subnetId = (await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.2.0.0/24' })))
        .Subnet!.SubnetId!;
      const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
      await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpcId }));
      const allocation = (await ec2.send(new AllocateAddressCommand({ Domain: 'vpc' }))).AllocationId!;
      const nat = new NatGatewayProvider(noWait);
      const made = await nat.create(
        request('Nat', 'AWS::EC2::NatGateway', { SubnetId: subnetId, AllocationId: allocation }, 'tok-nat'),
        context,
      );
      const state = async () =>
        (await ec2.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [made.physicalId] })))
          .NatGateways![0]!.State;
      expect(await state()).toBe('pending');
      const rtb = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable!.RouteTableId!;
      await ec2.send(
        new CreateRouteCommand({
          RouteTableId: rtb,
          DestinationCidrBlock: '0.0.0.0/0',
          NatGatewayId: made.physicalId,
        }),
      );
      const routeState = async () =>
        (
          await ec2.send(new DescribeRouteTablesCommand({ RouteTableIds: [rtb] }))
        ).RouteTables![0]!.Routes!.find((route) => route.NatGatewayId)!.State;
      expect(await routeState()).toBe('blackhole');
      expect(await errorName(ec2.send(new ReleaseAddressCommand({ AllocationId: allocation })))).toBe(
        'InvalidIPAddress.InUse',
      );
      await nat.untilUsable(
        { ...request('Nat', 'AWS::EC2::NatGateway', {}), physicalId: made.physicalId },
        context,
      );
      expect(await state()).toBe('available');
      expect(await routeState()).toBe('active');
      expect(await nat.locate(request('Nat', 'AWS::EC2::NatGateway', {}, 'tok-nat'), context)).toEqual({
        physicalId: made.physicalId,
      });
      await nat.delete(
        { ...request('Nat', 'AWS::EC2::NatGateway', {}), physicalId: made.physicalId },
        context,
      );
      expect(await state()).toBe('deleted');
      await ec2.send(new ReleaseAddressCommand({ AllocationId: allocation }));
    } finally {
      await setLatency(sandbox.current.url, {});
    }
  });
});

describe('the VPC set through its SDK providers', () => {
  it('makes, reads, updates and deletes a public subnet path; Cloud Control reads the same models', async () => {
    const vpcs = new VpcProvider();
    const vpc = await vpcs.create(
      request(
        'Vpc',
        'AWS::EC2::VPC',
        {
          CidrBlock: '10.5.0.0/16',
          EnableDnsHostnames: true,
          EnableDnsSupport: true,
          Tags: [{ Key: 'a', Value: '1' }],
        },
        'tok-vpc',
      ),
      context,
    );
    expect(vpc.physicalId).toMatch(/^vpc-/);
    expect(vpc.attributes.DefaultSecurityGroup).toMatch(/^sg-/);
    const cc = await context.clients.cloudControl(REGION);
    const ccModel = JSON.parse(
      (await cc.send(new GetResourceCommand({ TypeName: 'AWS::EC2::VPC', Identifier: vpc.physicalId })))
        .ResourceDescription!.Properties!,
    );
    expect(ccModel).toMatchObject({ CidrBlock: '10.5.0.0/16', EnableDnsHostnames: true });
    const vpcDelete = { ...request('Vpc', 'AWS::EC2::VPC', {}), physicalId: vpc.physicalId };
    expect((await vpcs.read(vpcDelete, context))!.properties).toMatchObject({
      EnableDnsHostnames: true,
      EnableDnsSupport: true,
      Tags: [{ Key: 'a', Value: '1' }],
    });
    expect(await vpcs.locate(request('Vpc', 'AWS::EC2::VPC', {}, 'tok-vpc'), context)).toEqual({
      physicalId: vpc.physicalId,
    });
    expect(await vpcs.locate(request('Vpc', 'AWS::EC2::VPC', {}, 'tok-other'), context)).toBe('none');

    const igws = new InternetGatewayProvider();
    const igw = await igws.create(request('Igw', 'AWS::EC2::InternetGateway', {}), context);
    const attachments = new GatewayAttachmentProvider();
    const attachProps = { VpcId: vpc.physicalId, InternetGatewayId: igw.physicalId };
    const attachment = await attachments.create(
      request('Gw', 'AWS::EC2::VPCGatewayAttachment', attachProps),
      context,
    );
    expect(attachment.physicalId).toBe(`IGW|${vpc.physicalId}`);
    // A create repeated after a lost answer finds its own attachment.
    expect(
      (await attachments.create(request('Gw', 'AWS::EC2::VPCGatewayAttachment', attachProps), context))
        .physicalId,
    ).toBe(attachment.physicalId);
    const subnet = await new SubnetProvider().create(
      request('Subnet', 'AWS::EC2::Subnet', { VpcId: vpc.physicalId, CidrBlock: '10.5.0.0/24' }),
      context,
    );
    const tables = new RouteTableProvider();
    const table = await tables.create(
      request('Rtb', 'AWS::EC2::RouteTable', { VpcId: vpc.physicalId }, 'tok-rtb'),
      context,
    );
    const association = await new RouteTableAssociationProvider().create(
      request('Assoc', 'AWS::EC2::SubnetRouteTableAssociation', {
        RouteTableId: table.physicalId,
        SubnetId: subnet.physicalId,
      }),
      context,
    );
    expect(association.physicalId).toMatch(/^rtbassoc-/);
    const routes = new RouteProvider();
    const routeProps = {
      RouteTableId: table.physicalId,
      DestinationCidrBlock: '0.0.0.0/0',
      GatewayId: igw.physicalId,
    };
    const route = await routes.create(request('Route', 'AWS::EC2::Route', routeProps), context);
    expect(route.physicalId).toBe(`${table.physicalId}|0.0.0.0/0`);
    expect(
      (await routes.read(
        { ...request('Route', 'AWS::EC2::Route', routeProps), physicalId: route.physicalId },
        context,
      ))!.properties,
    ).toEqual(routeProps);
    const endpoints = new VpcEndpointProvider();
    const endpoint = await endpoints.create(
      request(
        'S3',
        'AWS::EC2::VPCEndpoint',
        {
          VpcId: vpc.physicalId,
          ServiceName: 'com.amazonaws.us-east-1.s3',
          VpcEndpointType: 'Gateway',
          RouteTableIds: [table.physicalId],
        },
        'tok-vpce',
      ),
      context,
    );
    expect(endpoint.physicalId).toMatch(/^vpce-/);

    // In place: DNS hostnames off, a tag changed.
    await vpcs.update(
      {
        ...request('Vpc', 'AWS::EC2::VPC', {
          CidrBlock: '10.5.0.0/16',
          EnableDnsHostnames: false,
          Tags: [{ Key: 'a', Value: '2' }],
        }),
        physicalId: vpc.physicalId,
        previousProperties: {
          CidrBlock: '10.5.0.0/16',
          EnableDnsHostnames: true,
          Tags: [{ Key: 'a', Value: '1' }],
        },
      },
      context,
    );
    expect((await vpcs.read(vpcDelete, context))!.properties).toMatchObject({
      EnableDnsHostnames: false,
      Tags: [{ Key: 'a', Value: '2' }],
    });
    expect(vpcs.canUpdateInPlace('AWS::EC2::VPC', ['CidrBlock'])).toBe(false);
    expect(vpcs.canUpdateInPlace('AWS::EC2::VPC', ['EnableDnsHostnames', 'Tags'])).toBe(true);

    // The VPC still holds what was made in it: DependencyViolation, which the engine retries.
    expect(await errorName(vpcs.delete(vpcDelete, context))).toBe('DependencyViolation');
    await endpoints.delete(
      { ...request('S3', 'AWS::EC2::VPCEndpoint', {}), physicalId: endpoint.physicalId },
      context,
    );
    await routes.delete(
      { ...request('Route', 'AWS::EC2::Route', routeProps), physicalId: route.physicalId },
      context,
    );
    await new RouteTableAssociationProvider().delete(
      { ...request('A', 'x', {}), physicalId: association.physicalId },
      context,
    );
    await tables.delete({ ...request('Rtb', 'x', {}), physicalId: table.physicalId }, context);
    await new SubnetProvider().delete({ ...request('S', 'x', {}), physicalId: subnet.physicalId }, context);
    await attachments.delete(
      { ...request('Gw', 'x', attachProps), physicalId: attachment.physicalId },
      context,
    );
    await igws.delete({ ...request('Igw', 'x', {}), physicalId: igw.physicalId }, context);
    await vpcs.delete(vpcDelete, context);
    expect(await vpcs.read(vpcDelete, context)).toBeUndefined();
    // Deleting what is already gone succeeds.
    await vpcs.delete(vpcDelete, context);
    await routes.delete(
      { ...request('Route', 'AWS::EC2::Route', routeProps), physicalId: route.physicalId },
      context,
    );
    await endpoints.delete({ ...request('S3', 'x', {}), physicalId: endpoint.physicalId }, context);
  });

  it('keeps a security group’s rules as the template says, and standalone rules by their ids', async () => {
    const vpcId = (
      await new CloudControlProvider().create(
        request('V', 'AWS::EC2::VPC', { CidrBlock: '10.6.0.0/16' }),
        context,
      )
    ).physicalId;
    const groups = new SecurityGroupProvider();
    const web = {
      GroupDescription: 'web',
      VpcId: vpcId,
      SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' }],
    };
    const made = await groups.create(request('Web', 'AWS::EC2::SecurityGroup', web, 'tok-sg'), context);
    const groupRequest = { ...request('Web', 'AWS::EC2::SecurityGroup', web), physicalId: made.physicalId };
    const live = (await groups.read(groupRequest, context))!.properties;
    expect(live.GroupName).toMatch(/^VpcSet-Web-/);
    expect(live.SecurityGroupIngress).toEqual([
      { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' },
    ]);
    expect(live.SecurityGroupEgress).toEqual([{ IpProtocol: '-1', CidrIp: '0.0.0.0/0' }]);

    const closed = {
      ...web,
      SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 8443, ToPort: 8443, CidrIp: '0.0.0.0/0' }],
      SecurityGroupEgress: [{ IpProtocol: 'tcp', FromPort: 5432, ToPort: 5432, CidrIp: '10.0.0.0/8' }],
    };
    await groups.update({ ...groupRequest, properties: closed, previousProperties: web }, context);
    const after = (await groups.read(groupRequest, context))!.properties;
    expect(after.SecurityGroupIngress).toEqual(closed.SecurityGroupIngress);
    expect(after.SecurityGroupEgress).toEqual(closed.SecurityGroupEgress);

    const rules = new SecurityGroupRuleProvider('ingress');
    const ruleProps = {
      GroupId: made.physicalId,
      IpProtocol: 'tcp',
      FromPort: 22,
      ToPort: 22,
      CidrIp: '10.0.0.0/8',
      Description: 'ssh',
    };
    const rule = await rules.create(request('Ssh', 'AWS::EC2::SecurityGroupIngress', ruleProps), context);
    expect(rule.physicalId).toMatch(/^sgr-/);
    const ruleRequest = {
      ...request('Ssh', 'AWS::EC2::SecurityGroupIngress', ruleProps),
      physicalId: rule.physicalId,
    };
    expect((await rules.read(ruleRequest, context))!.properties).toEqual(ruleProps);
    expect(await rules.locate(request('Ssh', 'x', ruleProps), context)).toEqual({
      physicalId: rule.physicalId,
    });
    await rules.delete(ruleRequest, context);
    expect(await rules.read(ruleRequest, context)).toBeUndefined();
    await rules.delete(ruleRequest, context);

    await groups.delete(groupRequest, context);
    expect(await groups.read(groupRequest, context)).toBeUndefined();
    await groups.delete(groupRequest, context);
  });

  it('allocates and releases an address, its Ref the public IP', async () => {
    const eips = new EipProvider();
    const made = await eips.create(request('Eip', 'AWS::EC2::EIP', { Domain: 'vpc' }, 'tok-eip'), context);
    expect(made.physicalId).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(made.attributes.AllocationId).toMatch(/^eipalloc-/);
    expect(await eips.locate(request('Eip', 'x', {}, 'tok-eip'), context)).toEqual({
      physicalId: made.physicalId,
    });
    const del = { ...request('Eip', 'AWS::EC2::EIP', {}), physicalId: made.physicalId };
    await eips.delete(del, context);
    expect(await eips.read(del, context)).toBeUndefined();
    await eips.delete(del, context);
  });
});
