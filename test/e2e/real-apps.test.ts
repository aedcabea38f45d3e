import {
  GetBucketEncryptionCommand,
  GetBucketLocationCommand,
  GetBucketPolicyCommand,
  GetPublicAccessBlockCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  aws_iam as iam,
  aws_ssm as ssm,
  CfnOutput,
  CfnParameter,
  NestedStack,
  Stack,
  aws_s3_assets as assets,
  aws_sqs as sqs,
} from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Small CDK apps synthesized with aws-cdk-lib, with the settings a new user has, deployed
// through the built CLI: the papercuts real apps hit on their first deploy.
const sandbox = useSandbox();
const env = (extra: Record<string, string> = {}) => ({ ...sandboxEnv(sandbox.current.url), ...extra });

async function recordedTypes(stack: string): Promise<string[]> {
  const result = await runCli(['state', 'show', stack, '--json'], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  return Object.values(JSON.parse(result.stdout).resources as Record<string, { type: string }>)
    .map((record) => record.type)
    .sort();
}

async function addFault(spec: Record<string, unknown>) {
  const response = await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

describe('a nested stack with default settings (version reporting on)', () => {
  it("deploys, CDK's metadata record skipped in the nested template as at top level", async () => {
    let nestedId = '';
    const assembly = synthesizeApp((app) => {
      const parent = new Stack(app, 'WithNested');
      new sqs.Queue(parent, 'Outer');
      const child = new NestedStack(parent, 'Child');
      new sqs.Queue(child, 'Inner');
      nestedId = parent.resolve(child.nestedStackResource!.logicalId);
    });
    const result = await runCli(['deploy', '-a', assembly], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(await recordedTypes('WithNested')).toEqual(['AWS::CloudFormation::Stack', 'AWS::SQS::Queue']);
    expect(await recordedTypes(`WithNested/${nestedId}`)).toEqual(['AWS::SQS::Queue']);
    expect((await runCli(['destroy', '-a', assembly, '--yes'], { env: env() })).code).toBe(0);
  });
});

describe('--parameters across the selected stacks', () => {
  const assembly = () =>
    synthesizeApp((app) => {
      for (const name of ['ParamsWeb', 'ParamsDb']) {
        const stack = new Stack(app, name);
        const env = new CfnParameter(stack, 'Env');
        new CfnOutput(stack, 'EnvOut', { value: env.valueAsString });
      }
      new CfnParameter(new Stack(app, 'ParamsDb2'), 'Size');
    });

  it('names every missing parameter of every selected stack in one error, before anything is deployed', async () => {
    const result = await runCli(['deploy', '--all', '-a', assembly()], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error [PARAMETER_MISSING]: Parameters with no value and no Default: ParamsWeb: Env; ParamsDb: Env; ParamsDb2: Size.',
    );
    const list = await runCli(['state', 'list', '--json'], { env: env() });
    expect(JSON.parse(list.stdout).stacks).toEqual([]);
  });

  it('a plain NAME=value goes to every stack declaring NAME, ignored with a note for the others', async () => {
    const result = await runCli(
      ['deploy', '--all', '-a', assembly(), '--parameters', 'Env=prod', '--parameters', 'ParamsDb2:Size=3'],
      { env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('ParamsWeb.EnvOut = prod');
    expect(result.stdout).toContain('ParamsDb.EnvOut = prod');
    expect(result.stderr).toContain(
      '--parameters Env: ignored for ParamsDb2, which declares no parameter Env.',
    );
  });
});

describe('asset storage per region', () => {
  /** An app whose one stack, pinned to `region`, publishes a file asset and outputs its bucket. */
  const pinnedTo = (region: string) => {
    const source = tempDir();
    writeFileSync(join(source, 'index.html'), `<p>${region}</p>`);
    return synthesizeApp((app) => {
      const stack = new Stack(app, `Pinned-${region}`, { env: { region } });
      const asset = new assets.Asset(stack, 'Site', { path: source });
      new CfnOutput(stack, 'AssetBucket', { value: asset.s3BucketName });
    });
  };

  /** A bucket's settings as S3 reports them, with the bucket's own name taken out. */
  async function settings(bucket: string, region: string) {
    const s3 = new S3Client({ region });
    const policy = (await s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy!;
    return {
      encryption: (await s3.send(new GetBucketEncryptionCommand({ Bucket: bucket })))
        .ServerSideEncryptionConfiguration,
      publicAccess: (await s3.send(new GetPublicAccessBlockCommand({ Bucket: bucket })))
        .PublicAccessBlockConfiguration,
      policy: JSON.parse(policy.replaceAll(bucket, 'BUCKET')),
    };
  }

  it("a stack in a region bootstrap never prepared gets its asset bucket on first use, with bootstrap's settings", async () => {
    const assembly = pinnedTo('eu-west-1');
    const result = await runCli(['deploy', '-a', assembly], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    const bucket = 'cdkd-assets-000000000000-eu-west-1';
    expect(result.stdout).toContain(`Pinned-eu-west-1.AssetBucket = ${bucket}`);
    expect(result.stderr).toContain(
      `Created the asset bucket ${bucket} in eu-west-1, with the settings cdkd bootstrap applies`,
    );
    const location = await new S3Client({ region: 'eu-west-1' }).send(
      new GetBucketLocationCommand({ Bucket: bucket }),
    );
    expect(location.LocationConstraint).toBe('eu-west-1');
    expect(await settings(bucket, 'eu-west-1')).toEqual(
      await settings('cdkd-assets-000000000000-us-east-1', 'us-east-1'),
    );

    const again = await runCli(['deploy', '-a', assembly], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('Created the asset bucket');
    expect((await runCli(['destroy', '-a', assembly, '--yes'], { env: env() })).code).toBe(0);
  });

  it('stays ASSET_BUCKET_NOT_FOUND where these credentials may not create the bucket', async () => {
    await addFault({ service: 's3', operation: 'CreateBucket', errorCode: 'AccessDenied', httpStatus: 403 });
    const result = await runCli(['deploy', '-a', pinnedTo('ap-southeast-2')], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error [ASSET_BUCKET_NOT_FOUND]: The asset bucket "cdkd-assets-000000000000-ap-southeast-2" does not exist. cdkd may not create it with these credentials (AccessDenied).',
    );
    expect(result.stderr).toContain('cdkd bootstrap --region ap-southeast-2');
  });
});

describe('a stack pinned to an account', () => {
  const ACCOUNT = '111111111111';
  const asAccount = (...args: string[]) => runCli(args, { env: env({ AWS_ACCESS_KEY_ID: ACCOUNT }) });
  const assembly = () =>
    synthesizeApp((app) => {
      const stack = new Stack(app, 'PinnedAccount', { env: { account: ACCOUNT, region: 'us-east-1' } });
      const queue = new sqs.Queue(stack, 'Queue');
      const role = new iam.Role(stack, 'Role', {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      });
      const parameter = new ssm.StringParameter(stack, 'Parameter', { stringValue: 'v' });
      new CfnOutput(stack, 'QueueArn', { value: queue.queueArn });
      new CfnOutput(stack, 'RoleArn', { value: role.roleArn });
      new CfnOutput(stack, 'ParameterArn', { value: parameter.parameterArn });
    });

  it("destroying it from another account's credentials goes through that account's deploy role: refused with the bootstrap that fixes it when there is none", async () => {
    const result = await runCli(['destroy', '-a', assembly(), '--yes'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [ROLE_NOT_ASSUMABLE]');
    expect(result.stderr).toContain(`cdkd bootstrap aws://${ACCOUNT}/us-east-1 --trust 000000000000`);
  });

  it('deploys in that account under credentials for it, every ARN naming it', async () => {
    const app = assembly();
    const shared = ['--state-bucket', 'cdkd-shared-state'];
    expect((await asAccount('bootstrap', ...shared)).code).toBe(0);
    const result = await asAccount('deploy', '-a', app, ...shared);
    expect(result.code, result.stderr).toBe(0);
    const arns = result.stdout.split('\n').filter((line) => line.startsWith('PinnedAccount.'));
    expect(arns).toHaveLength(3);
    for (const line of arns) expect(line).toMatch(/ = arn:aws:[a-z]+:(us-east-1)?:111111111111:/);

    // Another account's credentials reach it only through its deploy role, which trusts nobody else: refused, nothing destroyed.
    const refused = await runCli(['destroy', '-a', app, '--yes', ...shared], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [ROLE_NOT_ASSUMABLE]');
    expect((await asAccount('destroy', '-a', app, '--yes', ...shared)).code).toBe(0);
  });
});
