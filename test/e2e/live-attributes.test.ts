import { DescribeInstancesCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { CfnOutput, Stack } from 'aws-cdk-lib';
import { CfnInstance, CfnSecurityGroup } from 'aws-cdk-lib/aws-ec2';
import { CfnParameter } from 'aws-cdk-lib/aws-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { setLatency } from '../providers/lambda-helpers.js';

// Spec 002 "Fn::GetAtt attributes read live", through the built CLI against the sandbox.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const clients = () => ({ endpoint: sandbox.current.url, region: 'us-east-1' });
let ec2: EC2Client;
let s3: S3Client;

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
  ec2 = new EC2Client(clients());
  s3 = new S3Client({ ...clients(), forcePathStyle: true });
});
afterAll(() => {
  ec2.destroy();
  s3.destroy();
});

async function admin<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/${path}`, { method });
  return (await response.json()) as T;
}

const stateKey = (stack: string) => `cdkd/${stack}/us-east-1/state.json`;

async function readState(stack: string): Promise<{
  resources: Record<string, { attributes: Record<string, unknown> }>;
  outputs: Record<string, { value: unknown }>;
}> {
  const object = await s3.send(
    new GetObjectCommand({ Bucket: 'cdkd-state-000000000000', Key: stateKey(stack) }),
  );
  return JSON.parse(await object.Body!.transformToString()) as never;
}

/** An instance, an SSM parameter holding its private IP, and outputs of its addresses. */
function instanceApp(stackName: string): string {
  return synthesizeApp((app) => {
    const stack = new Stack(app, stackName);
    const instance = new CfnInstance(stack, 'Web', { imageId: 'ami-12345678', instanceType: 't3.micro' });
    instance.overrideLogicalId('Web');
    new CfnParameter(stack, 'WebIp', {
      type: 'String',
      value: instance.attrPrivateIp,
      name: `/${stackName}/ip`,
    });
    new CfnOutput(stack, 'PrivateIp', { value: instance.attrPrivateIp });
    new CfnOutput(stack, 'PublicDnsName', { value: instance.attrPublicDnsName });
  });
}

async function described(instanceId: string) {
  const answer = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
  return answer.Reservations![0]!.Instances![0]!;
}

describe('an EC2 instance made through Cloud Control, its addresses read live', () => {
  it('waits for the pending instance and resolves its addresses, in a property and in outputs', async () => {
    // Cloud Control answers as the launch is accepted; the instance then boots for 1.5 s.
    await setLatency(sandbox.current.url, { 'AWS::EC2::Instance': { create: 1500 } });
    const result = await runCli(['deploy', '-a', instanceApp('LiveIp')], { env: env() });
    expect(result.code, result.stderr).toBe(0);

    const state = await readState('LiveIp');
    const web = state.resources.Web as unknown as { physicalId: string; attributes: Record<string, unknown> };
    // The record holds what the create saw (a pending instance): no address, nothing cached.
    expect(web.attributes.PrivateIp).toBeUndefined();
    const instance = await described(web.physicalId);
    expect(instance.PrivateIpAddress).toMatch(/^172\.31\./);
    expect(result.stdout).toContain(`LiveIp.PrivateIp = ${instance.PrivateIpAddress}`);
    expect(result.stdout).toContain(`LiveIp.PublicDnsName = ${instance.PublicDnsName}`);
    expect(result.stdout).not.toContain(web.physicalId);
    const ssm = new SSMClient(clients());
    const parameter = await ssm.send(new GetParameterCommand({ Name: '/LiveIp/ip' }));
    ssm.destroy();
    expect(parameter.Parameter?.Value).toBe(instance.PrivateIpAddress);

    // The reader plans with the address read live: a redeploy changes nothing.
    const again = await runCli(['deploy', '-a', instanceApp('LiveIp')], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('no changes');
  });

  it('under --no-wait refuses the pending instance in an output: warned, Outputs suppressed, exit 2; the next deploy reads again', async () => {
    // Cloud Control takes 8 s, then the instance boots for 8 s more: the outputs are read while it is pending.
    await setLatency(sandbox.current.url, { 'AWS::EC2::Instance': { create: 8000 } });
    const app = synthesizeApp((root) => {
      const stack = new Stack(root, 'LiveNoWait');
      const instance = new CfnInstance(stack, 'Web', { imageId: 'ami-12345678', instanceType: 't3.micro' });
      instance.overrideLogicalId('Web');
      new CfnOutput(stack, 'PublicIp', { value: instance.attrPublicIp });
      new CfnOutput(stack, 'Zone', { value: instance.attrAvailabilityZone });
    });
    const first = await runCli(['deploy', '-a', app, '--no-wait'], { env: env() });
    expect(first.code, first.stderr).toBe(2);
    expect(first.stdout).not.toContain('Outputs:');
    expect(first.stderr).toMatch(
      /warning: Outputs of LiveNoWait not shown: an output could not be resolved \(PublicIp: Fn::GetAtt Web\.PublicIp: AWS::EC2::Instance i-[0-9a-f]+ is pending/,
    );
    expect(first.stderr).toContain('without --no-wait');
    const web = (await readState('LiveNoWait')).resources.Web as unknown as { physicalId: string };
    expect(first.stdout + first.stderr).not.toContain(`= ${web.physicalId}`);

    await setLatency(sandbox.current.url, {});
    const again = await runCli(['deploy', '-a', app], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    const instance = await described(web.physicalId);
    expect(instance.State?.Name).toBe('running');
    expect(again.stdout).toContain(`LiveNoWait.PublicIp = ${instance.PublicIpAddress}`);
  });

  it('under --no-wait refuses the pending instance in a resource property: the deploy fails', async () => {
    await setLatency(sandbox.current.url, { 'AWS::EC2::Instance': { create: 8000 } });
    const result = await runCli(['deploy', '-a', instanceApp('LiveNoWaitProp'), '--no-wait'], { env: env() });
    await setLatency(sandbox.current.url, {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Fn::GetAtt Web\.PrivateIp: AWS::EC2::Instance i-[0-9a-f]+ is pending/);
  });
});

describe('a security group declared without VpcId', () => {
  it("resolves VpcId to the default VPC's id, also from a record an older cdkd wrote with ''", async () => {
    const app = synthesizeApp((root) => {
      const stack = new Stack(root, 'LiveGroup');
      const group = new CfnSecurityGroup(stack, 'Group', { groupDescription: 'no vpc given' });
      group.overrideLogicalId('Group');
      new CfnOutput(stack, 'GroupVpc', { value: group.attrVpcId });
    });
    const vpcs = await ec2.send(
      new DescribeVpcsCommand({ Filters: [{ Name: 'isDefault', Values: ['true'] }] }),
    );
    const defaultVpcId = vpcs.Vpcs![0]!.VpcId!;
    const first = await runCli(['deploy', '-a', app], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`LiveGroup.GroupVpc = ${defaultVpcId}`);

    // What an older cdkd recorded for such a group: '' as its VpcId, and so as the output.
    const state = await readState('LiveGroup');
    state.resources.Group!.attributes.VpcId = '';
    state.outputs.GroupVpc!.value = '';
    await s3.send(
      new PutObjectCommand({
        Bucket: 'cdkd-state-000000000000',
        Key: stateKey('LiveGroup'),
        Body: JSON.stringify(state),
      }),
    );
    await admin('DELETE', 'calls');
    const diff = await runCli(['diff', '-a', app, '--fail'], { env: env() });
    expect(diff.code, diff.stderr).toBe(1);
    expect(diff.stdout).toContain(`Outputs:\n  ~ GroupVpc: "" → "${defaultVpcId}"`);
    const calls = await admin<{ calls: Record<string, { count: number }> }>('GET', 'calls');
    expect(calls.calls['ec2:DescribeSecurityGroups']?.count).toBe(1);

    const again = await runCli(['deploy', '-a', app], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`LiveGroup.GroupVpc = ${defaultVpcId}`);
    // The output is healed; the record keeps '' until the group's next update.
    const healed = await runCli(['diff', '-a', app, '--fail'], { env: env() });
    expect(healed.code, healed.stdout + healed.stderr).toBe(0);
    expect((await readState('LiveGroup')).resources.Group!.attributes.VpcId).toBe('');
  });
});
