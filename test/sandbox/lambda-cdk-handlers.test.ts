import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DescribeLogGroupsCommand, type CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateFunctionCommand,
  InvokeCommand,
  waitUntilFunctionActiveV2,
  type LambdaClient,
  type Runtime,
} from '@aws-sdk/client-lambda';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectVersionsCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { s3Client, ssmClient } from './helpers.js';
import {
  ACCOUNT,
  lambdaClient,
  logsClient,
  parsePayload,
  presignedPutUrl,
  ROLE,
} from './lambda-runtime-helpers.js';

/**
 * The CDK's own custom-resource handlers (synthesized from aws-cdk-lib, not stubs) run on
 * the sandbox and act on it: the runtime, the SDK it provides and the https answer to
 * CloudFormation's ResponseURL, without the cdkd custom-resource provider.
 */

interface Template {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
}

let sandbox: Sandbox;
let lambda: LambdaClient;
let s3: S3Client;
let logs: CloudWatchLogsClient;
let ssm: SSMClient;
let outdir: string;
let template: Template;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'cdkd-cdk-handlers-'));
  const cdk = await import('aws-cdk-lib');
  const app = new cdk.App({ outdir });
  const stack = new cdk.Stack(app, 'Handlers', { env: { account: ACCOUNT, region: 'us-east-1' } });
  new cdk.aws_s3.Bucket(stack, 'Bucket', {
    autoDeleteObjects: true,
    removalPolicy: cdk.RemovalPolicy.DESTROY,
    versioned: true,
  });
  new cdk.aws_logs.LogRetention(stack, 'Retention', {
    logGroupName: '/custom/app',
    retention: cdk.aws_logs.RetentionDays.ONE_WEEK,
  });
  new cdk.custom_resources.AwsCustomResource(stack, 'PutParameter', {
    onCreate: {
      service: 'SSM',
      action: 'putParameter',
      parameters: { Name: '/cdkd/from-custom-aws', Value: 'written by Custom::AWS', Type: 'String' },
      physicalResourceId: cdk.custom_resources.PhysicalResourceId.of('custom-aws-parameter'),
    },
    policy: cdk.custom_resources.AwsCustomResourcePolicy.fromSdkCalls({
      resources: cdk.custom_resources.AwsCustomResourcePolicy.ANY_RESOURCE,
    }),
    installLatestAwsSdk: false,
  });
  app.synth();
  template = JSON.parse(readFileSync(join(outdir, 'Handlers.template.json'), 'utf8')) as Template;

  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  lambda = lambdaClient(sandbox);
  s3 = s3Client(sandbox);
  logs = logsClient(sandbox);
  ssm = ssmClient(sandbox);
  await s3.send(new CreateBucketCommand({ Bucket: 'cfn-responses' }));
});
afterAll(async () => {
  lambda?.destroy();
  s3?.destroy();
  logs?.destroy();
  ssm?.destroy();
  await sandbox?.stop();
  rmSync(outdir, { recursive: true, force: true });
});

/** Creates the function that serves a custom resource type, from the synthesized asset. */
async function deployHandlerOf(customType: string, name: string): Promise<string> {
  const custom = Object.values(template.Resources).find((resource) => resource.Type === customType)!;
  const token = custom.Properties.ServiceToken as { 'Fn::GetAtt': [string, string] };
  const handler = template.Resources[token['Fn::GetAtt'][0]]!.Properties;
  const key = (handler.Code as { S3Key: string }).S3Key;
  await lambda.send(
    new CreateFunctionCommand({
      FunctionName: name,
      Role: ROLE,
      Runtime: handler.Runtime as Runtime,
      Handler: handler.Handler as string,
      Timeout: handler.Timeout as number,
      Code: { ZipFile: zipDirectory(join(outdir, `asset.${key.replace(/\.zip$/, '')}`)) },
    }),
  );
  await waitUntilFunctionActiveV2({ client: lambda, maxWaitTime: 30, minDelay: 1 }, { FunctionName: name });
  return handler.Runtime as string;
}

/** Invokes a handler with a CloudFormation request and returns the response it PUT to the ResponseURL. */
async function request(
  name: string,
  event: Record<string, unknown>,
): Promise<{ Status: string; Reason?: string; PhysicalResourceId?: string }> {
  const key = `responses/${name}-${String(event.RequestType)}`;
  const response = await lambda.send(
    new InvokeCommand({
      FunctionName: name,
      Payload: Buffer.from(
        JSON.stringify({
          StackId: `arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/Handlers/1b2c3d4e`,
          RequestId: `request-${name}`,
          LogicalResourceId: 'Resource',
          ResponseURL: presignedPutUrl(sandbox, 'cfn-responses', key),
          ...event,
        }),
      ),
    }),
  );
  expect(response.FunctionError, JSON.stringify(parsePayload(response.Payload))).toBeUndefined();
  const object = await s3.send(new GetObjectCommand({ Bucket: 'cfn-responses', Key: key }));
  return JSON.parse(await object.Body!.transformToString()) as { Status: string };
}

describe("the CDK's built-in handlers on the sandbox", () => {
  it('Custom::AWS makes its SDK call against the sandbox and answers its physical id', async () => {
    await deployHandlerOf('Custom::AWS', 'custom-aws');
    const custom = Object.values(template.Resources).find((resource) => resource.Type === 'Custom::AWS')!;
    const answer = await request('custom-aws', {
      RequestType: 'Create',
      ResourceType: 'Custom::AWS',
      ResourceProperties: { ...custom.Properties, ServiceToken: 'arn' },
    });
    expect(answer).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'custom-aws-parameter' });
    const { Parameter } = await ssm.send(new GetParameterCommand({ Name: '/cdkd/from-custom-aws' }));
    expect(Parameter?.Value).toBe('written by Custom::AWS');
  });

  it('Custom::S3AutoDeleteObjects empties a versioned bucket on Delete', async () => {
    const runtime = await deployHandlerOf('Custom::S3AutoDeleteObjects', 'auto-delete-objects');
    expect(runtime).toMatch(/^nodejs\d+\.x$/);
    await s3.send(new CreateBucketCommand({ Bucket: 'full-bucket' }));
    await s3.send(
      new PutBucketVersioningCommand({
        Bucket: 'full-bucket',
        VersioningConfiguration: { Status: 'Enabled' },
      }),
    );
    await s3.send(
      new PutBucketTaggingCommand({
        Bucket: 'full-bucket',
        Tagging: { TagSet: [{ Key: 'aws-cdk:auto-delete-objects', Value: 'true' }] },
      }),
    );
    for (const key of ['a.txt', 'a.txt', 'dir/b.txt']) {
      await s3.send(new PutObjectCommand({ Bucket: 'full-bucket', Key: key, Body: 'x' }));
    }
    const answer = await request('auto-delete-objects', {
      RequestType: 'Delete',
      ResourceType: 'Custom::S3AutoDeleteObjects',
      PhysicalResourceId: 'full-bucket',
      ResourceProperties: { ServiceToken: 'arn', BucketName: 'full-bucket' },
    });
    expect(answer).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'full-bucket' });
    const left = await s3.send(new ListObjectVersionsCommand({ Bucket: 'full-bucket' }));
    expect([...(left.Versions ?? []), ...(left.DeleteMarkers ?? [])]).toEqual([]);
  });

  it('Custom::LogRetention creates the log group with its retention', async () => {
    await deployHandlerOf('Custom::LogRetention', 'log-retention');
    const answer = await request('log-retention', {
      RequestType: 'Create',
      ResourceType: 'Custom::LogRetention',
      ResourceProperties: { ServiceToken: 'arn', LogGroupName: '/custom/app', RetentionInDays: '7' },
    });
    expect(answer).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: '/custom/app' });
    const { logGroups } = await logs.send(
      new DescribeLogGroupsCommand({ logGroupNamePrefix: '/custom/app' }),
    );
    expect(logGroups?.map((group) => [group.logGroupName, group.retentionInDays])).toEqual([
      ['/custom/app', 7],
    ]);
  });
});

function zipDirectory(dir: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path);
    }
  };
  walk(dir);
  return zipSync(files);
}
