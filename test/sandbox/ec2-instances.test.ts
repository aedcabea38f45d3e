import {
  CreateResourceCommand,
  GetResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  DescribeInstancesCommand,
  EC2Client,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { setLatency } from '../providers/lambda-helpers.js';
import { cloudControlClient, failure, settle } from './helpers.js';

let sandbox: Sandbox;
let cc: CloudControlClient;
let ec2: EC2Client;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cc = cloudControlClient(sandbox);
  ec2 = new EC2Client({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  cc.destroy();
  ec2.destroy();
  await sandbox.stop();
});

async function describeOne(instanceId: string) {
  const answer = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
  return answer.Reservations![0]!.Instances![0]!;
}

describe('EC2 instances', () => {
  it('is pending without addresses for the type create delay, then running with them', async () => {
    await setLatency(sandbox.url, { 'AWS::EC2::Instance': { create: 60_000 } });
    const slow = await ec2.send(
      new RunInstancesCommand({
        ImageId: 'ami-12345678',
        InstanceType: 't3.micro',
        MinCount: 1,
        MaxCount: 1,
      }),
    );
    const slowId = slow.Instances![0]!.InstanceId!;
    expect(slow.Instances![0]!.State).toEqual({ Code: 0, Name: 'pending' });
    const pending = await describeOne(slowId);
    expect(pending.State?.Name).toBe('pending');
    expect(pending.PrivateIpAddress).toBeUndefined();
    expect(pending.PublicIpAddress).toBeUndefined();
    expect(pending.PrivateDnsName).toBe('');
    expect(pending.Placement?.AvailabilityZone).toMatch(/^us-east-1[a-f]$/);

    await setLatency(sandbox.url, {});
    const fast = await ec2.send(
      new RunInstancesCommand({
        ImageId: 'ami-12345678',
        InstanceType: 't3.micro',
        MinCount: 1,
        MaxCount: 1,
      }),
    );
    const running = await describeOne(fast.Instances![0]!.InstanceId!);
    expect(running.State).toEqual({ Code: 16, Name: 'running' });
    // A default subnet (172.31.0.0/16) maps a public address on launch.
    expect(running.PrivateIpAddress).toMatch(/^172\.31\.\d+\.\d+$/);
    expect(running.PrivateDnsName).toBe(`ip-${running.PrivateIpAddress!.replace(/\./g, '-')}.ec2.internal`);
    expect(running.PublicIpAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(running.PublicDnsName).toBe(
      `ec2-${running.PublicIpAddress!.replace(/\./g, '-')}.compute-1.amazonaws.com`,
    );

    const filtered = await ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'instance-state-name', Values: ['pending'] }] }),
    );
    const ids = filtered.Reservations!.flatMap((r) => r.Instances!.map((i) => i.InstanceId));
    expect(ids).toContain(slowId);
    expect(ids).not.toContain(running.InstanceId);

    const terminated = await ec2.send(new TerminateInstancesCommand({ InstanceIds: [slowId] }));
    expect(terminated.TerminatingInstances![0]!.CurrentState?.Name).toBe('shutting-down');
    const gone = await failure(ec2.send(new DescribeInstancesCommand({ InstanceIds: [slowId] })));
    expect(gone.name).toBe('InvalidInstanceID.NotFound');
  });

  it('shares its instances with Cloud Control: an AWS::EC2::Instance is one EC2 describes', async () => {
    const accepted = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::EC2::Instance',
        DesiredState: JSON.stringify({ ImageId: 'ami-12345678', InstanceType: 't3.micro' }),
      }),
    );
    const { event } = await settle(cc, accepted.ProgressEvent!);
    expect(event.OperationStatus).toBe('SUCCESS');
    const instanceId = event.Identifier!;
    expect(instanceId).toMatch(/^i-[0-9a-f]{17}$/);
    const described = await describeOne(instanceId);
    const read = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::EC2::Instance', Identifier: instanceId }),
    );
    const model = JSON.parse(read.ResourceDescription!.Properties!) as Record<string, unknown>;
    expect(model).toMatchObject({
      InstanceId: instanceId,
      ImageId: 'ami-12345678',
      PrivateIp: described.PrivateIpAddress,
      PublicIp: described.PublicIpAddress,
      VpcId: described.VpcId,
      AvailabilityZone: described.Placement?.AvailabilityZone,
      State: { Code: '16', Name: 'running' },
    });
  });
});
