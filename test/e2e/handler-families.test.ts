import { DescribeInstanceConnectEndpointsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DescribeKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CloudWatchLogsClient, DescribeResourcePoliciesCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  aws_ec2 as ec2,
  aws_events as events,
  aws_events_targets as targets,
  aws_kms as kms,
  aws_logs as logs,
  CfnOutput,
  RemovalPolicy,
  Stack,
  custom_resources as cr,
} from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { deployUpdateDestroy, sandboxClient } from '../helpers/handler-apps.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 35: the handler families real apps failed on, each an aws-cdk-lib app deployed,
// updated and destroyed on the sandbox through the built CLI, the handlers running there.
const sandbox = useSandbox();
const client = <C>(Client: new (config: object) => C, region = 'us-east-1'): C =>
  sandboxClient(sandbox.current.url, Client, region);

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: sandboxEnv(sandbox.current.url) })).code).toBe(0);
});

describe("the CDK's custom-resource handler families on the sandbox", () => {
  it('EventBridge to a log group: the resource policy letting events in is put, kept on update, removed on destroy', async () => {
    const policyNames = async () =>
      (
        (await client(CloudWatchLogsClient).send(new DescribeResourcePoliciesCommand({}))).resourcePolicies ??
        []
      ).map((policy) => policy.policyName);
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const stack = new Stack(app, 'HcEventsToLogs');
        const group = new logs.LogGroup(stack, 'Group', { removalPolicy: RemovalPolicy.DESTROY });
        new events.Rule(stack, 'Rule', {
          eventPattern: { source: ['cdkd.test'], detailType: version === 1 ? ['one'] : ['two'] },
          targets: [new targets.CloudWatchLogGroup(group)],
        });
      },
      async () => {
        expect(await policyNames()).toHaveLength(1);
      },
    );
    expect(await policyNames()).toEqual([]);
  }, 300_000);

  it('a KMS multi-Region key replicated into another region by an AwsCustomResource: the replica is made, then scheduled for deletion', async () => {
    let replicaArn = '';
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const stack = new Stack(app, 'HcKmsReplica', { env: { region: 'us-east-1' } });
        const key = new kms.CfnKey(stack, 'Key', { multiRegion: true, description: `primary v${version}` });
        const replica = new cr.AwsCustomResource(stack, 'Replica', {
          onCreate: {
            service: 'KMS',
            action: 'replicateKey',
            parameters: { KeyId: key.attrKeyId, ReplicaRegion: 'eu-west-1', Description: 'replica' },
            physicalResourceId: cr.PhysicalResourceId.fromResponse('ReplicaKeyMetadata.Arn'),
          },
          onDelete: {
            service: 'KMS',
            action: 'scheduleKeyDeletion',
            region: 'eu-west-1',
            parameters: { KeyId: new cr.PhysicalResourceIdReference(), PendingWindowInDays: 7 },
          },
          policy: cr.AwsCustomResourcePolicy.fromSdkCalls({
            resources: cr.AwsCustomResourcePolicy.ANY_RESOURCE,
          }),
        });
        new CfnOutput(stack, 'ReplicaArn', { value: replica.getResponseField('ReplicaKeyMetadata.Arn') });
      },
      async (outputs) => {
        replicaArn = outputs['HcKmsReplica.ReplicaArn']!;
        expect(replicaArn).toMatch(/^arn:aws:kms:eu-west-1:\d{12}:key\/mrk-/);
        const replica = await client(KMSClient, 'eu-west-1').send(
          new DescribeKeyCommand({ KeyId: replicaArn }),
        );
        expect(replica.KeyMetadata?.MultiRegionConfiguration?.MultiRegionKeyType).toBe('REPLICA');
      },
    );
    const replica = await client(KMSClient, 'eu-west-1').send(new DescribeKeyCommand({ KeyId: replicaArn }));
    expect(replica.KeyMetadata?.KeyState).toBe('PendingDeletion');
  }, 300_000);

  it('an EC2 Instance Connect endpoint made by an AwsCustomResource in a new VPC, deleted with it', async () => {
    const endpoints = async () =>
      (await client(EC2Client).send(new DescribeInstanceConnectEndpointsCommand({})))
        .InstanceConnectEndpoints ?? [];
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const stack = new Stack(app, 'HcConnectEndpoint');
        const vpc = new ec2.Vpc(stack, 'Vpc', {
          maxAzs: 1,
          natGateways: 0,
          subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }],
        });
        const group = new ec2.SecurityGroup(stack, 'Group', { vpc, description: `endpoint v${version}` });
        const call = (action: string, parameters: Record<string, unknown>): cr.AwsSdkCall => ({
          service: 'EC2',
          action,
          parameters,
          physicalResourceId: cr.PhysicalResourceId.fromResponse(
            'InstanceConnectEndpoint.InstanceConnectEndpointId',
          ),
        });
        new cr.AwsCustomResource(stack, 'Endpoint', {
          onCreate: call('createInstanceConnectEndpoint', {
            SubnetId: vpc.isolatedSubnets[0]!.subnetId,
            SecurityGroupIds: [group.securityGroupId],
          }),
          onDelete: {
            service: 'EC2',
            action: 'deleteInstanceConnectEndpoint',
            parameters: { InstanceConnectEndpointId: new cr.PhysicalResourceIdReference() },
          },
          policy: cr.AwsCustomResourcePolicy.fromSdkCalls({
            resources: cr.AwsCustomResourcePolicy.ANY_RESOURCE,
          }),
        });
      },
      async () => {
        expect((await endpoints()).map((endpoint) => endpoint.State)).toEqual(['create-complete']);
      },
    );
    expect(await endpoints()).toEqual([]);
  }, 300_000);
});
