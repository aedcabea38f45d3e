import {
  CloudWatchLogsClient,
  DeleteResourcePolicyCommand,
  DescribeResourcePoliciesCommand,
  PutResourcePolicyCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateInstanceConnectEndpointCommand,
  DeleteInstanceConnectEndpointCommand,
  DescribeInstanceConnectEndpointsCommand,
  DescribeSubnetsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { CreateKeyCommand, DescribeKeyCommand, KMSClient, ReplicateKeyCommand } from '@aws-sdk/client-kms';
import {
  ChangeResourceRecordSetsCommand,
  CreateHostedZoneCommand,
  ListResourceRecordSetsCommand,
  Route53Client,
} from '@aws-sdk/client-route-53';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { describe, expect, it } from 'vitest';
import { sandboxClient } from '../helpers/handler-apps.js';
import { useSandbox } from '../helpers/sandbox.js';

// The calls the CDK's custom-resource handlers make that the sandbox serves for them (issue 35),
// each with the shape and errors AWS answers.
const sandbox = useSandbox();
const client = <C>(Client: new (config: object) => C, region = 'us-east-1'): C =>
  sandboxClient(sandbox.current.url, Client, region);

describe('KMS ReplicateKey', () => {
  it('makes the replica in the other region with the same id, and both describe the pair', async () => {
    const primary = (await client(KMSClient).send(new CreateKeyCommand({ MultiRegion: true }))).KeyMetadata!;
    expect(primary.KeyId).toMatch(/^mrk-[0-9a-f]{32}$/);
    const replica = await client(KMSClient).send(
      new ReplicateKeyCommand({ KeyId: primary.Arn, ReplicaRegion: 'eu-west-1', Description: 'copy' }),
    );
    expect(replica.ReplicaKeyMetadata?.Arn).toBe(primary.Arn!.replace('us-east-1', 'eu-west-1'));
    const fromReplica = await client(KMSClient, 'eu-west-1').send(
      new DescribeKeyCommand({ KeyId: primary.KeyId }),
    );
    expect(fromReplica.KeyMetadata?.MultiRegionConfiguration).toEqual({
      MultiRegionKeyType: 'REPLICA',
      PrimaryKey: { Arn: primary.Arn, Region: 'us-east-1' },
      ReplicaKeys: [{ Arn: replica.ReplicaKeyMetadata!.Arn, Region: 'eu-west-1' }],
    });
    await expect(
      client(KMSClient).send(new ReplicateKeyCommand({ KeyId: primary.KeyId, ReplicaRegion: 'eu-west-1' })),
    ).rejects.toThrow(expect.objectContaining({ name: 'AlreadyExistsException' }));
  });

  it('a single-Region key cannot be replicated: UnsupportedOperationException', async () => {
    const key = (await client(KMSClient).send(new CreateKeyCommand({}))).KeyMetadata!;
    await expect(
      client(KMSClient).send(new ReplicateKeyCommand({ KeyId: key.KeyId, ReplicaRegion: 'eu-west-1' })),
    ).rejects.toThrow(expect.objectContaining({ name: 'UnsupportedOperationException' }));
  });
});

describe('CloudWatch Logs resource policies', () => {
  it('put, described, replaced by name, deleted; deleting a missing one is ResourceNotFoundException', async () => {
    const logs = client(CloudWatchLogsClient);
    const document = JSON.stringify({ Version: '2012-10-17', Statement: [] });
    await logs.send(new PutResourcePolicyCommand({ policyName: 'events', policyDocument: document }));
    await logs.send(new PutResourcePolicyCommand({ policyName: 'events', policyDocument: document }));
    const listed = await logs.send(new DescribeResourcePoliciesCommand({}));
    expect(listed.resourcePolicies?.map((policy) => [policy.policyName, policy.policyDocument])).toEqual([
      ['events', document],
    ]);
    await logs.send(new DeleteResourcePolicyCommand({ policyName: 'events' }));
    await expect(logs.send(new DeleteResourcePolicyCommand({ policyName: 'events' }))).rejects.toThrow(
      expect.objectContaining({ name: 'ResourceNotFoundException' }),
    );
  });
});

describe('EC2 Instance Connect endpoints', () => {
  it('made in a subnet, described, deleted; an unknown subnet is InvalidSubnetID.NotFound', async () => {
    const ec2 = client(EC2Client);
    const subnet = (await ec2.send(new DescribeSubnetsCommand({}))).Subnets![0]!;
    const made = await ec2.send(new CreateInstanceConnectEndpointCommand({ SubnetId: subnet.SubnetId }));
    const id = made.InstanceConnectEndpoint!.InstanceConnectEndpointId!;
    expect(made.InstanceConnectEndpoint).toMatchObject({
      SubnetId: subnet.SubnetId,
      VpcId: subnet.VpcId,
      State: 'create-complete',
    });
    const described = await ec2.send(
      new DescribeInstanceConnectEndpointsCommand({ InstanceConnectEndpointIds: [id] }),
    );
    expect(described.InstanceConnectEndpoints?.map((endpoint) => endpoint.InstanceConnectEndpointId)).toEqual(
      [id],
    );
    await ec2.send(new DeleteInstanceConnectEndpointCommand({ InstanceConnectEndpointId: id }));
    await expect(
      ec2.send(new DescribeInstanceConnectEndpointsCommand({ InstanceConnectEndpointIds: [id] })),
    ).rejects.toThrow(expect.objectContaining({ name: 'InvalidInstanceConnectEndpointId.NotFound' }));
    await expect(
      ec2.send(new CreateInstanceConnectEndpointCommand({ SubnetId: 'subnet-0000000000000000f' })),
    ).rejects.toThrow(expect.objectContaining({ name: 'InvalidSubnetID.NotFound' }));
  });
});

describe('Route 53 record sets', () => {
  it('a change batch creates and deletes records; creating one twice is InvalidChangeBatch', async () => {
    const route53 = client(Route53Client);
    const zone = await route53.send(
      new CreateHostedZoneCommand({ Name: 'calls.example.com', CallerReference: 'r1' }),
    );
    const zoneId = zone.HostedZone!.Id!;
    const change = (Action: 'CREATE' | 'DELETE') =>
      route53.send(
        new ChangeResourceRecordSetsCommand({
          HostedZoneId: zoneId,
          ChangeBatch: {
            Changes: [
              {
                Action,
                ResourceRecordSet: {
                  Name: 'www.calls.example.com',
                  Type: 'A',
                  TTL: 60,
                  ResourceRecords: [{ Value: '192.0.2.1' }],
                },
              },
            ],
          },
        }),
      );
    await change('CREATE');
    await expect(change('CREATE')).rejects.toThrow(expect.objectContaining({ name: 'InvalidChangeBatch' }));
    const records = async () =>
      (
        await route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }))
      ).ResourceRecordSets!.map((record) => `${record.Name} ${record.Type}`);
    expect(await records()).toEqual([
      'calls.example.com. NS',
      'calls.example.com. SOA',
      'www.calls.example.com. A',
    ]);
    await change('DELETE');
    expect(await records()).toEqual(['calls.example.com. NS', 'calls.example.com. SOA']);
  });
});

describe('STS AssumeRole', () => {
  it("hands out keys acting in the role's account; a role the sandbox does not hold, or whose trust does not name the caller, is AccessDenied", async () => {
    const trusting = (account: string) =>
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${account}:root` }, Action: 'sts:AssumeRole' },
        ],
      });
    await client(IAMClient).send(
      new CreateRoleCommand({ RoleName: 'Assumable', AssumeRolePolicyDocument: trusting('000000000000') }),
    );
    await client(IAMClient).send(
      new CreateRoleCommand({ RoleName: 'TrustsOthers', AssumeRolePolicyDocument: trusting('999999999999') }),
    );
    await expect(
      client(STSClient).send(
        new AssumeRoleCommand({
          RoleArn: 'arn:aws:iam::111111111111:role/TrustsOthers',
          RoleSessionName: 'probe',
        }),
      ),
    ).rejects.toThrow(expect.objectContaining({ name: 'AccessDenied' }));
    const assumed = await client(STSClient).send(
      new AssumeRoleCommand({
        RoleArn: 'arn:aws:iam::111111111111:role/Assumable',
        RoleSessionName: 'probe',
      }),
    );
    expect(assumed.AssumedRoleUser?.Arn).toBe('arn:aws:sts::111111111111:assumed-role/Assumable/probe');
    const { AccessKeyId, SecretAccessKey, SessionToken } = assumed.Credentials!;
    const asRole = new STSClient({
      endpoint: sandbox.current.url,
      region: 'us-east-1',
      credentials: {
        accessKeyId: AccessKeyId!,
        secretAccessKey: SecretAccessKey!,
        sessionToken: SessionToken!,
      },
    });
    expect((await asRole.send(new GetCallerIdentityCommand({}))).Account).toBe('111111111111');
    await expect(
      client(STSClient).send(
        new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::111111111111:role/Nobody', RoleSessionName: 'probe' }),
      ),
    ).rejects.toThrow(expect.objectContaining({ name: 'AccessDenied' }));
  });
});

describe('S3 multipart uploads', () => {
  it('parts completed in order make one object', async () => {
    const s3 = client(S3Client);
    await s3.send(new CreateBucketCommand({ Bucket: 'multipart-calls' }));
    const { UploadId } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket: 'multipart-calls', Key: 'big' }),
    );
    const part = async (PartNumber: number, Body: string) =>
      (
        await s3.send(
          new UploadPartCommand({ Bucket: 'multipart-calls', Key: 'big', UploadId, PartNumber, Body }),
        )
      ).ETag;
    const parts = [
      { PartNumber: 1, ETag: await part(1, 'hello ') },
      { PartNumber: 2, ETag: await part(2, 'world') },
    ];
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'multipart-calls',
        Key: 'big',
        UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    expect(done.ETag).toMatch(/^"[0-9a-f]{32}-2"$/);
    const object = await s3.send(new GetObjectCommand({ Bucket: 'multipart-calls', Key: 'big' }));
    expect(await object.Body!.transformToString()).toBe('hello world');
    await expect(
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: 'multipart-calls',
          Key: 'big',
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      ),
    ).rejects.toThrow(expect.objectContaining({ name: 'NoSuchUpload' }));
  });
});
