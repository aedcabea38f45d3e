import { CloudControlClient, CreateResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { CreateAliasCommand, CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContextLookups, ContextQuery } from '../../src/assembly/index.js';
import { AwsClients } from '../../src/aws/client-factory.js';
import { awsContextLookups } from '../../src/context-providers/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { settle } from '../sandbox/helpers.js';

const ACCOUNT = '000000000000';
useSandbox();
let clients: AwsClients;
let lookups: ContextLookups;

beforeAll(() => {
  clients = new AwsClients({ region: 'us-east-1' });
  lookups = awsContextLookups(clients, async () => ({ account: ACCOUNT, region: 'us-east-1' }));
});

const query = (props: Record<string, unknown>, region = 'us-east-1'): ContextQuery => ({
  account: ACCOUNT,
  region,
  ...props,
});

async function create(type: string, desired: Record<string, unknown>, region = 'us-east-1'): Promise<string> {
  const cc = await clients.client(CloudControlClient, region);
  const accepted = await cc.send(
    new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(desired) }),
  );
  const { event } = await settle(cc, accepted.ProgressEvent!);
  expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
  return event.Identifier!;
}

describe('context providers through the AWS SDK, against the sandbox', () => {
  it("availability-zones: the query region's available zones", async () => {
    expect(await lookups.lookup('availability-zones', query({}, 'eu-west-1'))).toEqual({
      value: ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'],
    });
  });

  it('ssm: the value, or notFound with the CDK CLI message', async () => {
    const ssm = await clients.client(SSMClient, 'eu-west-1');
    await ssm.send(new PutParameterCommand({ Name: '/app/colour', Value: 'blue', Type: 'String' }));
    expect(await lookups.lookup('ssm', query({ parameterName: '/app/colour' }, 'eu-west-1'))).toEqual({
      value: 'blue',
    });
    expect(await lookups.lookup('ssm', query({ parameterName: '/app/colour' }, 'us-east-1'))).toEqual({
      notFound: `SSM parameter not available in account ${ACCOUNT}, region us-east-1: /app/colour`,
    });
  });

  it('ami: the newest matching image; none is an error', async () => {
    const found = await lookups.lookup(
      'ami',
      query({ owners: ['amazon'], filters: { name: ['al2023-ami-2023*-x86_64'], state: ['available'] } }),
    );
    expect(found).toEqual({ value: expect.stringMatching(/^ami-[0-9a-f]{17}$/) });
    await expect(
      lookups.lookup('ami', query({ owners: ['amazon'], filters: { name: ['no-such-image*'] } })),
    ).rejects.toThrow('No AMI found that matched the search criteria');
  });

  it('vpc-provider: the default VPC, as Vpc.fromLookup({ isDefault: true }) asks for it', async () => {
    const result = (await lookups.lookup(
      'vpc-provider',
      query({ filter: { isDefault: 'true' }, returnAsymmetricSubnets: true }, 'eu-west-1'),
    )) as { value: Record<string, unknown> };
    expect(result.value).toMatchObject({
      vpcId: expect.stringMatching(/^vpc-/),
      vpcCidrBlock: '172.31.0.0/16',
      ownerAccountId: ACCOUNT,
      availabilityZones: [],
      subnetGroups: [
        {
          name: 'Public',
          type: 'Public',
          subnets: ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'].map((zone) =>
            expect.objectContaining({ availabilityZone: zone, routeTableId: expect.stringMatching(/^rtb-/) }),
          ),
        },
      ],
    });
  });

  it('vpc-provider: a VPC a stack made, by tag, with its subnets typed by their routes; several matches refuse', async () => {
    const vpcId = await create('AWS::EC2::VPC', {
      CidrBlock: '10.5.0.0/16',
      Tags: [{ Key: 'env', Value: 'prod' }],
    });
    const igw = await create('AWS::EC2::InternetGateway', {});
    const nat = await create('AWS::EC2::NatGateway', { SubnetId: 'subnet-00000000000000000' });
    const subnet = async (cidr: string, zone: string, route: Record<string, string>) => {
      const id = await create('AWS::EC2::Subnet', { VpcId: vpcId, CidrBlock: cidr, AvailabilityZone: zone });
      const table = await create('AWS::EC2::RouteTable', { VpcId: vpcId });
      await create('AWS::EC2::Route', { RouteTableId: table, DestinationCidrBlock: '0.0.0.0/0', ...route });
      await create('AWS::EC2::SubnetRouteTableAssociation', { SubnetId: id, RouteTableId: table });
      return id;
    };
    const publicA = await subnet('10.5.0.0/24', 'us-east-1a', { GatewayId: igw });
    const privateA = await subnet('10.5.1.0/24', 'us-east-1a', { NatGatewayId: nat });
    const result = (await lookups.lookup('vpc-provider', query({ filter: { 'tag:env': 'prod' } }))) as {
      value: Record<string, unknown>;
    };
    expect(result.value).toMatchObject({
      vpcId,
      availabilityZones: ['us-east-1a'],
      publicSubnetIds: [publicA],
      privateSubnetIds: [privateA],
    });
    await create('AWS::EC2::VPC', { CidrBlock: '10.6.0.0/16', Tags: [{ Key: 'env', Value: 'prod' }] });
    await expect(lookups.lookup('vpc-provider', query({ filter: { 'tag:env': 'prod' } }))).rejects.toThrow(
      /Found 2 VPCs matching .*please narrow the search criteria/,
    );
  });

  it("security-group: a VPC's default group by name, which does not allow all IPv6 traffic out", async () => {
    const vpc = (await lookups.lookup(
      'vpc-provider',
      query({ filter: { isDefault: 'true' }, returnAsymmetricSubnets: true }),
    )) as {
      value: { vpcId: string };
    };
    const result = await lookups.lookup(
      'security-group',
      query({ securityGroupName: 'default', vpcId: vpc.value.vpcId }),
    );
    expect(result).toEqual({
      value: { securityGroupId: expect.stringMatching(/^sg-/), allowAllOutbound: false },
    });
    await expect(lookups.lookup('security-group', query({ securityGroupName: 'nope' }))).rejects.toThrow(
      /No security groups found matching/,
    );
  });

  it('hosted-zone: the one public zone of the name, as `{ Id, Name }`; none is an error naming the filter', async () => {
    const route53 = await clients.client(Route53Client, 'us-east-1');
    const made = await route53.send(
      new CreateHostedZoneCommand({ Name: 'lookup.example.com', CallerReference: 'ref-1' }),
    );
    await route53.send(
      new CreateHostedZoneCommand({
        Name: 'lookup.example.com',
        CallerReference: 'ref-2',
        HostedZoneConfig: { PrivateZone: true },
        VPC: { VPCId: 'vpc-00000000000000001', VPCRegion: 'us-east-1' },
      }),
    );
    expect(await lookups.lookup('hosted-zone', query({ domainName: 'lookup.example.com' }))).toEqual({
      value: { Id: made.HostedZone!.Id, Name: 'lookup.example.com.' },
    });
    const inVpc = (await lookups.lookup(
      'hosted-zone',
      query({ domainName: 'lookup.example.com', privateZone: true, vpcId: 'vpc-00000000000000001' }),
    )) as { value: { Id: string } };
    expect(inVpc.value.Id).not.toBe(made.HostedZone!.Id);
    await expect(lookups.lookup('hosted-zone', query({ domainName: 'other.example.com' }))).rejects.toThrow(
      'Found zones: [] for dns:other.example.com, privateZone:undefined, vpcId:undefined, but wanted exactly 1 zone',
    );
  });

  it('load-balancer and load-balancer-listener: one balancer by tags, one listener by port', async () => {
    const vpc = (await lookups.lookup(
      'vpc-provider',
      query({ filter: { isDefault: 'true' }, returnAsymmetricSubnets: true }),
    )) as {
      value: { vpcId: string; subnetGroups: Array<{ subnets: Array<{ subnetId: string }> }> };
    };
    const subnets = vpc.value.subnetGroups[0]!.subnets.slice(0, 2).map((subnet) => subnet.subnetId);
    const arn = await create('AWS::ElasticLoadBalancingV2::LoadBalancer', {
      Type: 'application',
      Subnets: subnets,
      SecurityGroups: ['sg-00000000000000001'],
      Tags: [{ Key: 'app', Value: 'web' }],
    });
    await create('AWS::ElasticLoadBalancingV2::LoadBalancer', {
      Type: 'application',
      Subnets: subnets,
      Tags: [{ Key: 'app', Value: 'api' }],
    });
    const listener = await create('AWS::ElasticLoadBalancingV2::Listener', {
      LoadBalancerArn: arn,
      Port: 443,
      Protocol: 'HTTPS',
      DefaultActions: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '404' } }],
    });
    const byTags = { loadBalancerType: 'application', loadBalancerTags: [{ key: 'app', value: 'web' }] };
    expect(await lookups.lookup('load-balancer', query(byTags))).toEqual({
      value: {
        loadBalancerArn: arn,
        loadBalancerCanonicalHostedZoneId: 'Z35SXDOTRQ7X7K',
        loadBalancerDnsName: expect.any(String),
        vpcId: vpc.value.vpcId,
        securityGroupIds: ['sg-00000000000000001'],
        ipAddressType: 'ipv4',
      },
    });
    expect(await lookups.lookup('load-balancer-listener', query({ ...byTags, listenerPort: 443 }))).toEqual({
      value: { listenerArn: listener, listenerPort: 443, securityGroupIds: ['sg-00000000000000001'] },
    });
    await expect(
      lookups.lookup('load-balancer', query({ loadBalancerType: 'application', loadBalancerTags: [] })),
    ).rejects.toThrow(/Multiple load balancers found matching/);
    await expect(
      lookups.lookup('load-balancer-listener', query({ ...byTags, listenerPort: 80 })),
    ).rejects.toThrow(/No load balancer listeners found matching/);
  });

  it('key-provider: the key an alias names; an unknown alias is notFound', async () => {
    const kms = await clients.client(KMSClient, 'us-east-1');
    const key = await kms.send(new CreateKeyCommand({}));
    await kms.send(new CreateAliasCommand({ AliasName: 'alias/app', TargetKeyId: key.KeyMetadata!.KeyId }));
    expect(await lookups.lookup('key-provider', query({ aliasName: 'alias/app' }))).toEqual({
      value: { keyId: key.KeyMetadata!.KeyId },
    });
    expect(await lookups.lookup('key-provider', query({ aliasName: 'alias/none' }))).toEqual({
      notFound: 'Could not find any key with alias named alias/none',
    });
  });

  it('endpoint-service-availability-zones: the zones the service is offered in', async () => {
    expect(
      await lookups.lookup(
        'endpoint-service-availability-zones',
        query({ serviceName: 'com.amazonaws.us-east-1.s3' }),
      ),
    ).toEqual({
      value: ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1e', 'us-east-1f'],
    });
  });

  it('refuses a lookup in another account when the query names no lookup role, before any call', async () => {
    await expect(
      lookups.lookup('availability-zones', { account: '111111111111', region: 'us-east-1' }),
    ).rejects.toMatchObject({
      code: 'CONTEXT_LOOKUP_FAILED',
      message: expect.stringContaining('account 111111111111'),
    });
  });

  it('does not claim CDK CLI plugins', () => {
    expect(lookups.supports('plugin')).toBe(false);
    expect(lookups.supports('cc-api-provider')).toBe(true);
  });

  it('cc-api-provider: resources by identifier or by property values, with the properties asked for', async () => {
    const name = await create('AWS::ECR::Repository', {
      RepositoryName: 'looked-up',
      ImageTagMutability: 'IMMUTABLE',
    });
    await create('AWS::ECR::Repository', { RepositoryName: 'other', ImageTagMutability: 'IMMUTABLE' });
    const typeName = 'AWS::ECR::Repository';
    expect(
      await lookups.lookup(
        'cc-api-provider',
        query({ typeName, exactIdentifier: name, propertiesToReturn: ['Arn'] }),
      ),
    ).toEqual({
      value: [{ Arn: `arn:aws:ecr:us-east-1:${ACCOUNT}:repository/looked-up`, Identifier: 'looked-up' }],
    });
    const byProperty = query({
      typeName,
      propertyMatch: { RepositoryName: 'looked-up' },
      propertiesToReturn: ['RepositoryUri'],
      expectedMatchCount: 'exactly-one',
    });
    expect(await lookups.lookup('cc-api-provider', byProperty)).toEqual({
      value: [
        { RepositoryUri: `${ACCOUNT}.dkr.ecr.us-east-1.amazonaws.com/looked-up`, Identifier: 'looked-up' },
      ],
    });
    const several = { ...byProperty, propertyMatch: { ImageTagMutability: 'IMMUTABLE' } };
    await expect(lookups.lookup('cc-api-provider', several)).rejects.toThrow(/Found 2 resources matching/);
    expect(
      await lookups.lookup(
        'cc-api-provider',
        query({ typeName, exactIdentifier: 'none', propertiesToReturn: [] }),
      ),
    ).toEqual({
      notFound: 'No resource of type AWS::ECR::Repository with identifier: none',
    });
  });
});
