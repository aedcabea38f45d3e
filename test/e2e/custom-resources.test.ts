import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CloudWatchLogsClient, DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DescribeSecurityGroupsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, startCli, synthesizeAndBootstrap } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The CDK's own custom resources, with their real handler code synthesized from aws-cdk-lib,
// deployed and destroyed through the built CLI on the sandbox, which runs the handlers.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const appDir = join(REPO_ROOT, 'test/fixtures/custom-resource-app');
let work: string;
let assembly: string;

beforeAll(async () => {
  ({ work, assembly } = await synthesizeAndBootstrap(appDir, env(), 'cdkd-custom-resources-'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Deploys `stack`, expecting success, and returns its outputs. */
async function deploy(stack: string): Promise<Record<string, string>> {
  const outputsFile = join(work, `${stack}.outputs.json`);
  const result = await runCli(['deploy', stack, '-a', assembly, '--outputs-file', outputsFile], {
    env: env(),
  });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(readFileSync(outputsFile, 'utf8'))[stack];
}

async function destroy(stack: string): Promise<void> {
  const result = await runCli(['destroy', stack, '-a', assembly, '--yes'], { env: env() });
  expect(result.code, result.stderr).toBe(0);
}

/** What the sandbox holds besides the log groups Lambda made for the functions it ran, as on AWS. */
async function leftBehind(): Promise<string[]> {
  return (await stackResources(sandbox.current.url)).map((resource) => `${resource.type} ${resource.id}`);
}

async function calls(): Promise<Record<string, { count: number }>> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/calls`);
  return ((await response.json()) as { calls: Record<string, { count: number }> }).calls;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const client = <C>(Client: new (config: object) => C): C =>
  new Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });

describe("the CDK's custom resources on the sandbox", () => {
  it('a bucket with autoDeleteObjects holding objects is destroyed cleanly', async () => {
    const { BucketName } = await deploy('CrAutoDelete');
    const s3 = client(S3Client);
    for (const key of ['a.txt', 'nested/b.txt', 'c.txt']) {
      await s3.send(new PutObjectCommand({ Bucket: BucketName, Key: key, Body: key }));
    }
    expect((await s3.send(new ListObjectsV2Command({ Bucket: BucketName }))).KeyCount).toBe(3);
    await destroy('CrAutoDelete');
    expect(await leftBehind()).toEqual([]);
  });

  it('logRetention sets the function log group retention', async () => {
    const { FunctionName } = await deploy('CrLogRetention');
    const logs = client(CloudWatchLogsClient);
    const groups = await logs.send(
      new DescribeLogGroupsCommand({ logGroupNamePrefix: `/aws/lambda/${FunctionName}` }),
    );
    expect(groups.logGroups?.map((group) => [group.logGroupName, group.retentionInDays])).toEqual([
      [`/aws/lambda/${FunctionName}`, 7],
    ]);
    await destroy('CrLogRetention');
    expect(await leftBehind()).toEqual([]);
  });

  it('an AwsCustomResource reads a parameter, and its response field feeds an output', async () => {
    expect(await deploy('CrAwsCall')).toMatchObject({ ParameterValue: 'from-ssm' });
    await destroy('CrAwsCall');
    expect(await leftBehind()).toEqual([]);
  });

  it('a custom-resources.Provider with our own handler: its Data feeds an output', async () => {
    expect(await deploy('CrProvider')).toMatchObject({ AnswerOutput: 'forty-two for life' });
    await destroy('CrProvider');
    expect(await leftBehind()).toEqual([]);
  });

  it('a Vpc deploys with its default security group restricted', async () => {
    const { VpcId } = await deploy('CrVpc');
    const groups = await client(EC2Client).send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'vpc-id', Values: [VpcId!] }] }),
    );
    const defaults = groups.SecurityGroups?.filter((group) => group.GroupName === 'default') ?? [];
    expect(defaults).toHaveLength(1);
    expect(defaults[0]?.IpPermissions).toEqual([]);
    expect(defaults[0]?.IpPermissionsEgress).toEqual([]);
    await destroy('CrVpc');
    expect(await leftBehind()).toEqual([]);
  });

  it('a failing handler: the deploy fails with its reason on one line, and the automatic rollback leaves nothing', async () => {
    const result = await runCli(['deploy', 'CrFailing', '-a', assembly], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /Error \[DEPLOY_FAILED\].*the handler answered FAILED to the Create request: the handler refuses to create; Logs: \/aws\/lambda\//,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).toContain('Rolled back');
    expect(await leftBehind()).toEqual([]);
  });

  it('a SIGKILL while a custom resource is in flight: cdkd rollback reads its answer and settles it', async () => {
    await fetch(`${sandbox.current.url}/_sandbox/calls`, { method: 'DELETE' });
    const run = startCli(
      ['deploy', 'CrSlow', '-a', assembly],
      'Resource (AWS::CloudFormation::CustomResource) create started',
      { env: env() },
    );
    await run.creating;
    // Killed once the request was delivered: the handler runs on (3 s) and answers after the kill.
    await until(async () => ((await calls())['lambda:Invoke']?.count ?? 0) > 0);
    run.child.kill('SIGKILL');
    await run.done;
    expect((await runCli(['force-unlock', 'CrSlow', '--yes'], { env: env() })).code).toBe(0);
    const rolledBack = await runCli(['rollback', 'CrSlow', '--yes'], { env: env() });
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
    // The handler finished after the kill; the rollback sent a Delete for what it made.
    expect(rolledBack.stdout + rolledBack.stderr).toMatch(
      /Resource \(AWS::CloudFormation::CustomResource\).*slow-one/,
    );
    expect(await leftBehind()).toEqual([]);
  });
});
