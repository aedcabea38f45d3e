import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A CDK app that looks up what the account holds (its default VPC, its zones, the
// latest Amazon Linux 2023 image) deploys to the sandbox with no hand-written context.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const lib = (path: string) => JSON.stringify(join(REPO_ROOT, 'node_modules', path));

const APP = `
const cdk = require(${lib('aws-cdk-lib')});
const ec2 = require(${lib('aws-cdk-lib/aws-ec2')});
const ssm = require(${lib('aws-cdk-lib/aws-ssm')});
const app = new cdk.App();
const stack = new cdk.Stack(app, 'Lookups', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
const vpc = ec2.Vpc.fromLookup(stack, 'Vpc', { isDefault: true });
const group = new ec2.SecurityGroup(stack, 'Web', { vpc, description: 'web' });
const image = ec2.MachineImage.latestAmazonLinux2023().getImage(stack);
new ssm.StringParameter(stack, 'Image', { parameterName: '/lookups/image', stringValue: image.imageId });
new cdk.CfnOutput(stack, 'VpcId', { value: vpc.vpcId });
new cdk.CfnOutput(stack, 'GroupVpc', { value: group.securityGroupVpcId });
new cdk.CfnOutput(stack, 'Subnets', { value: vpc.publicSubnets.map((subnet) => subnet.subnetId).join(',') });
new cdk.CfnOutput(stack, 'Zones', { value: stack.availabilityZones.join(',') });
app.synth();
`;

let project: string;

beforeAll(async () => {
  project = tempDir();
  writeFileSync(join(project, 'app.cjs'), APP);
  writeFileSync(join(project, 'cdk.json'), JSON.stringify({ app: 'node app.cjs' }));
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

const contextFile = () => join(project, 'cdk.context.json');

describe('context lookups end to end', () => {
  it('--no-lookups refuses before anything is looked up or written, naming the keys', async () => {
    const result = await runCli(['synth', '--no-lookups', '--no-validation', '-q'], {
      env: env(),
      cwd: project,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('lookups are off (--no-lookups)');
    expect(result.stderr).toContain('vpc-provider:account=000000000000');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(contextFile())).toBe(false);
  });

  it('deploys with the default VPC, its zones and the public AL2023 image, caching the lookups', async () => {
    const outputsFile = join(project, 'outputs.json');
    const result = await runCli(['deploy', '--all', '--no-validation', '--outputs-file', outputsFile], {
      env: env(),
      cwd: project,
    });
    expect(result.code, result.stderr).toBe(0);

    const cached = JSON.parse(readFileSync(contextFile(), 'utf8')) as Record<string, unknown>;
    const keys = Object.keys(cached);
    expect(
      keys.some((key) =>
        key.startsWith('vpc-provider:account=000000000000:filter.isDefault=true:region=us-east-1'),
      ),
    ).toBe(true);
    expect(cached['availability-zones:account=000000000000:region=us-east-1']).toEqual([
      'us-east-1a',
      'us-east-1b',
      'us-east-1c',
      'us-east-1d',
      'us-east-1e',
      'us-east-1f',
    ]);

    const ec2 = new EC2Client({ region: 'us-east-1' });
    const ssm = new SSMClient({ region: 'us-east-1' });
    try {
      const defaultVpc = (
        await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }))
      ).Vpcs![0]!;
      const outputs = JSON.parse(readFileSync(outputsFile, 'utf8')).Lookups;
      expect(outputs.VpcId).toBe(defaultVpc.VpcId);
      expect(outputs.GroupVpc).toBe(defaultVpc.VpcId);
      expect(outputs.Subnets.split(',')).toHaveLength(6);
      expect(outputs.Zones).toBe('us-east-1a,us-east-1b,us-east-1c,us-east-1d,us-east-1e,us-east-1f');
      const imageId = (await ssm.send(new GetParameterCommand({ Name: '/lookups/image' }))).Parameter!.Value;
      const published = (
        await ssm.send(
          new GetParameterCommand({
            Name: '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64',
          }),
        )
      ).Parameter!.Value;
      expect(imageId).toBe(published);
    } finally {
      ec2.destroy();
      ssm.destroy();
    }

    // Everything is cached now: synthesis needs no lookups.
    const offline = await runCli(['synth', '--no-lookups', '--no-validation', '-q'], {
      env: env(),
      cwd: project,
    });
    expect(offline.code, offline.stderr).toBe(0);
  });

  it('cdkd context lists the cached values, resets one by number or key, and clears them all', async () => {
    const listed = await runCli(['context'], { env: env(), cwd: project });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^1 {2}availability-zones:account=000000000000:region=us-east-1 {2}\["us-east-1a"/m,
    );
    expect(listed.stdout).toMatch(/^2 {2}vpc-provider:/m);

    const reset = await runCli(['context', '--reset', '1'], { env: env(), cwd: project });
    expect(reset.stdout).toContain(
      'Context value availability-zones:account=000000000000:region=us-east-1 reset',
    );
    const afterReset = JSON.parse((await runCli(['context', '--json'], { env: env(), cwd: project })).stdout);
    expect(Object.keys(afterReset)).toHaveLength(1);
    expect(Object.keys(afterReset)[0]).toMatch(/^vpc-provider:/);

    const missing = await runCli(['context', '--reset', 'no-such-key'], { env: env(), cwd: project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No cached context value with key or number "no-such-key"');

    const cleared = await runCli(['context', '--clear'], { env: env(), cwd: project });
    expect(cleared.stdout).toContain('Cleared 1 cached context value.');
    expect((await runCli(['context'], { env: env(), cwd: project })).stdout).toContain(
      'No context values are cached',
    );
  });
});
