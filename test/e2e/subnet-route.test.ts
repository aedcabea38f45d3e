import { DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Spec 002 "When the auto-route needs a recreate", the measured create-only drop: a subnet made
// by its SDK provider gains AvailabilityZoneId (which that provider does not send) under
// --prefer-sdk-route, is kept on the SDK route with the property recorded, and a later deploy
// without the flag is refused with CREATE_ONLY_DROP_NEEDS_REPLACEMENT. The built CLI on the sandbox.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const STACK = 'SubnetRoute';
const FLAG = ['--prefer-sdk-route', 'AWS::EC2::Subnet:AvailabilityZoneId'];

function app(subnet: Record<string, unknown> = {}): string {
  const dir = tempDir();
  writeAssembly(dir, [
    {
      id: STACK,
      template: {
        Resources: {
          Vpc: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.1.0.0/16' } },
          Subnet: {
            Type: 'AWS::EC2::Subnet',
            Properties: {
              VpcId: { Ref: 'Vpc' },
              CidrBlock: '10.1.0.0/24',
              AvailabilityZone: 'us-east-1a',
              MapPublicIpOnLaunch: true,
              Tags: [{ Key: 'Name', Value: 'public-a' }],
              ...subnet,
            },
          },
        },
        Outputs: { SubnetZone: { Value: { 'Fn::GetAtt': ['Subnet', 'AvailabilityZoneId'] } } },
      },
    },
  ]);
  return dir;
}

interface Recorded {
  physicalId: string;
  provisionedBy: string;
  properties: Record<string, unknown>;
}

async function recorded(): Promise<Recorded> {
  const shown = await cli(['state', 'show', STACK, '--json']);
  return JSON.parse(shown.stdout).resources.Subnet as Recorded;
}

async function live(subnetId: string) {
  const ec2 = await new AwsClients().client(EC2Client, 'us-east-1');
  return (await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] }))).Subnets![0]!;
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('a create-only drop on a subnet (AvailabilityZoneId)', () => {
  it('made by the SDK provider; kept on the SDK route and recorded under the flag; refused without it', async () => {
    const made = await cli(['deploy', '-a', app()]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(`${STACK}.SubnetZone = use1-az1`);
    const first = await recorded();
    expect(first.provisionedBy).toBe('sdk');
    expect(first.physicalId).toMatch(/^subnet-/);
    expect(await live(first.physicalId)).toMatchObject({
      MapPublicIpOnLaunch: true,
      AvailabilityZone: 'us-east-1a',
    });

    const zoned = app({ AvailabilityZoneId: 'use1-az1' });
    const shown = await cli(['diff', '-a', zoned, ...FLAG]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      '~   Subnet (AWS::EC2::Subnet) [SDK provider drops: AvailabilityZoneId]: changed: AvailabilityZoneId',
    );
    expect(shown.stdout).toContain(
      'AvailabilityZoneId is create-only and left unsent (--prefer-sdk-route): recorded, not applied',
    );

    const kept = await cli(['deploy', '-a', zoned, ...FLAG]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toMatch(/Subnet .*updated/);
    expect(kept.stderr).not.toMatch(/Subnet .*replaced/);
    const second = await recorded();
    expect(second).toMatchObject({
      provisionedBy: 'sdk',
      physicalId: first.physicalId,
      properties: { AvailabilityZoneId: 'use1-az1' },
    });

    const again = await cli(['deploy', '-a', zoned, ...FLAG]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${STACK} (no changes)`);

    const refusedDiff = await cli(['diff', '-a', zoned]);
    expect(refusedDiff.code).toBe(1);
    expect(refusedDiff.stderr).toContain('CREATE_ONLY_DROP_NEEDS_REPLACEMENT');
    const refused = await cli(['deploy', '-a', zoned]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('CREATE_ONLY_DROP_NEEDS_REPLACEMENT');
    expect(refused.stderr).toContain('Subnet (AWS::EC2::Subnet): AvailabilityZoneId');
    expect(refused.stderr).toContain('--prefer-sdk-route AWS::EC2::Subnet:AvailabilityZoneId');
    expect(refused.stderr).toContain('--recreate-via-cc-api Subnet');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await recorded()).toEqual(second);

    const destroyed = await cli(['destroy', '-a', zoned, '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    await expect(live(first.physicalId)).rejects.toMatchObject({ name: 'InvalidSubnetID.NotFound' });
  });

  it('a removable drop (EnableDns64) moves the subnet to Cloud Control in place, its id kept', async () => {
    expect((await cli(['deploy', '-a', app()])).code).toBe(0);
    const before = await recorded();
    const moved = await cli(['deploy', '-a', app({ EnableDns64: true })]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/Subnet .*updated.*moved to Cloud Control/);
    expect(await recorded()).toMatchObject({
      provisionedBy: 'cc-api',
      physicalId: before.physicalId,
      properties: { EnableDns64: true },
    });
    expect((await live(before.physicalId)).Tags).toContainEqual({ Key: 'Name', Value: 'public-a' });
    expect((await cli(['destroy', '-a', app({ EnableDns64: true }), '--yes'])).code).toBe(0);
  });
});
