import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  UpdateResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  CreateBucketCommand,
  GetBucketVersioningCommand,
  HeadBucketCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  DescribeLogGroupsCommand,
  PutLogEventsCommand,
  CreateLogStreamCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { GetParameterCommand, PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, failure, s3Client, settle, ssmClient } from './helpers.js';

let sandbox: Sandbox;
let cc: CloudControlClient;
let s3: S3Client;
let ssm: SSMClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cc = cloudControlClient(sandbox);
  s3 = s3Client(sandbox);
  ssm = ssmClient(sandbox);
});
afterAll(async () => {
  for (const client of [cc, s3, ssm]) client.destroy();
  await sandbox.stop();
});

async function run(command: CreateResourceCommand | UpdateResourceCommand | DeleteResourceCommand) {
  const accepted = await cc.send(command as CreateResourceCommand);
  return (await settle(cc, accepted.ProgressEvent!)).event;
}

describe('Cloud Control and the S3 module share one bucket store', () => {
  it('creates through Cloud Control a bucket the S3 API sees, with its configuration', async () => {
    const event = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::S3::Bucket',
        DesiredState: JSON.stringify({
          BucketName: 'cc-made',
          VersioningConfiguration: { Status: 'Enabled' },
        }),
      }),
    );
    expect(event).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'cc-made' });
    await s3.send(new HeadBucketCommand({ Bucket: 'cc-made' }));
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: 'cc-made' }))).Status).toBe('Enabled');
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(inventory.json.s3['AWS::S3::Bucket'].map((b: { id: string }) => b.id)).toContain('cc-made');
  });

  it('reads through Cloud Control a bucket made with the S3 API', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 's3-made' }));
    const output = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::S3::Bucket', Identifier: 's3-made' }),
    );
    expect(JSON.parse(output.ResourceDescription!.Properties!)).toMatchObject({
      BucketName: 's3-made',
      Arn: 'arn:aws:s3:::s3-made',
      RegionalDomainName: 's3-made.s3.us-east-1.amazonaws.com',
    });
    const duplicate = await run(
      new CreateResourceCommand({ TypeName: 'AWS::S3::Bucket', DesiredState: '{"BucketName":"s3-made"}' }),
    );
    expect(duplicate).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'AlreadyExists' });
  });

  it('refuses to delete a bucket that holds objects, then deletes it once emptied', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'cc-made', Key: 'k', Body: 'x' }));
    const refused = await run(
      new DeleteResourceCommand({ TypeName: 'AWS::S3::Bucket', Identifier: 'cc-made' }),
    );
    expect(refused).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'GeneralServiceException' });
    expect(refused.StatusMessage).toContain('The bucket you tried to delete is not empty');
    const deleted = await run(
      new DeleteResourceCommand({ TypeName: 'AWS::S3::Bucket', Identifier: 's3-made' }),
    );
    expect(deleted.OperationStatus).toBe('SUCCESS');
    expect((await failure(s3.send(new HeadBucketCommand({ Bucket: 's3-made' })))).name).toBe('NotFound');
  });
});

describe('Cloud Control and the SSM module share one parameter store', () => {
  it('creates and updates AWS::SSM::Parameter as SSM parameters', async () => {
    const created = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::SSM::Parameter',
        DesiredState: JSON.stringify({ Name: '/app/mode', Type: 'String', Value: 'blue' }),
      }),
    );
    expect(created.Identifier).toBe('/app/mode');
    expect((await ssm.send(new GetParameterCommand({ Name: '/app/mode' }))).Parameter).toMatchObject({
      Value: 'blue',
      Version: 1,
    });
    await run(
      new UpdateResourceCommand({
        TypeName: 'AWS::SSM::Parameter',
        Identifier: '/app/mode',
        PatchDocument: JSON.stringify([{ op: 'replace', path: '/Value', value: 'green' }]),
      }),
    );
    expect((await ssm.send(new GetParameterCommand({ Name: '/app/mode' }))).Parameter).toMatchObject({
      Value: 'green',
      Version: 2,
    });
  });

  it('sees a parameter written with the SSM API', async () => {
    await ssm.send(new PutParameterCommand({ Name: 'plain', Type: 'StringList', Value: 'a,b' }));
    const output = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: 'plain' }),
    );
    expect(JSON.parse(output.ResourceDescription!.Properties!)).toMatchObject({
      Name: 'plain',
      Type: 'StringList',
      Value: 'a,b',
    });
  });
});

describe('Cloud Control and the Logs module share one log group store', () => {
  const logs = () =>
    new CloudWatchLogsClient({
      endpoint: sandbox.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'x' },
      maxAttempts: 1,
    });
  const described = async (client: CloudWatchLogsClient, prefix: string) =>
    (await client.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: prefix }))).logGroups ?? [];

  it("makes a group the Logs API lists and writes to, and its delete takes the group's events with it", async () => {
    const client = logs();
    const created = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::Logs::LogGroup',
        DesiredState: JSON.stringify({ RetentionInDays: 7, Tags: [{ Key: 'team', Value: 'a' }] }),
      }),
    );
    const name = created.Identifier!;
    expect(name).toMatch(/^LogGroup-[A-Z0-9]{12}$/);
    expect(await described(client, name)).toEqual([
      expect.objectContaining({ logGroupName: name, retentionInDays: 7 }),
    ]);
    await client.send(new CreateLogStreamCommand({ logGroupName: name, logStreamName: 's' }));
    await client.send(
      new PutLogEventsCommand({
        logGroupName: name,
        logStreamName: 's',
        logEvents: [{ timestamp: Date.now(), message: 'hello' }],
      }),
    );
    const model = JSON.parse(
      (await cc.send(new GetResourceCommand({ TypeName: 'AWS::Logs::LogGroup', Identifier: name })))
        .ResourceDescription!.Properties!,
    );
    expect(model).toMatchObject({
      LogGroupName: name,
      RetentionInDays: 7,
      Tags: [{ Key: 'team', Value: 'a' }],
      Arn: expect.stringMatching(new RegExp(`^arn:aws:logs:us-east-1:\\d{12}:log-group:${name}:\\*$`)),
    });

    await run(new DeleteResourceCommand({ TypeName: 'AWS::Logs::LogGroup', Identifier: name }));
    expect(await described(client, name)).toEqual([]);
    client.destroy();
  });

  it('reads a group the Logs API made, and refuses to make one whose name is taken', async () => {
    const client = logs();
    await client.send(new CreateLogGroupCommand({ logGroupName: '/app/api' }));
    const read = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::Logs::LogGroup', Identifier: '/app/api' }),
    );
    expect(JSON.parse(read.ResourceDescription!.Properties!)).toMatchObject({ LogGroupName: '/app/api' });
    const taken = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::Logs::LogGroup',
        DesiredState: JSON.stringify({ LogGroupName: '/app/api' }),
      }),
    );
    expect(taken).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'AlreadyExists' });
    client.destroy();
  });
});

describe('Cloud Control persistence', () => {
  it('keeps generic resources and request tokens across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cdkd-cc-'));
    try {
      const first = await startSandbox({ port: 0, dataDir });
      const firstClient = cloudControlClient(first);
      const accepted = await firstClient.send(
        new CreateResourceCommand({
          TypeName: 'AWS::Logs::LogGroup',
          DesiredState: '{"LogGroupName":"kept"}',
        }),
      );
      await settle(firstClient, accepted.ProgressEvent!);
      firstClient.destroy();
      await first.stop();

      const second = await startSandbox({ port: 0, dataDir });
      const secondClient = cloudControlClient(second);
      const output = await secondClient.send(
        new GetResourceCommand({ TypeName: 'AWS::Logs::LogGroup', Identifier: 'kept' }),
      );
      expect(JSON.parse(output.ResourceDescription!.Properties!)).toMatchObject({ LogGroupName: 'kept' });
      const { event } = await settle(secondClient, accepted.ProgressEvent!);
      expect(event).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'kept' });
      secondClient.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
