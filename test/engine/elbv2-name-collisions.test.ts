import {
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../helpers/error-chain.js';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * Spec 002, "Name collisions": ELBv2's CreateLoadBalancer and CreateTargetGroup return the
 * resource already holding the name when the settings match, so a create under an explicit
 * name looks the name up first (NAMED_CREATE_COLLISION), and so does a replacement onto a new
 * name (NAMED_REPLACEMENT_COLLISION); under --prefix-user-supplied-names the name looked up is
 * the prefixed one the create sends. On the sandbox, through the ELBv2 SDK providers.
 */
const sandbox = useSandboxEngine('elbv2-names-state');
let elb: ElasticLoadBalancingV2Client;
/** Two of the default VPC's subnets, in two zones, as an application load balancer needs. */
let subnets: string[];
let vpcId: string;

beforeAll(async () => {
  elb = await sandbox.clients.client(ElasticLoadBalancingV2Client, REGION);
  const ec2 = await sandbox.clients.client(EC2Client, REGION);
  const found = await ec2.send(
    new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
  );
  const defaults = found.Subnets ?? [];
  subnets = defaults.slice(0, 2).map((subnet) => subnet.SubnetId!);
  vpcId = defaults[0]!.VpcId!;
});

const balancer = (name: string) => ({
  Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
  Properties: { Name: name, Type: 'application', Subnets: subnets },
});
const targetGroup = (name: string) => ({
  Type: 'AWS::ElasticLoadBalancingV2::TargetGroup',
  Properties: { Name: name, Port: 80, Protocol: 'HTTP', VpcId: vpcId },
});

async function deployFails(
  stackName: string,
  resources: Record<string, unknown>,
  options: Parameters<typeof sandbox.deploy>[2] = {},
) {
  const error = await sandbox.deploy(stackName, resources, options).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeDefined();
  return failureOf(error);
}

async function balancerArns(name: string): Promise<string[]> {
  const found = await elb.send(new DescribeLoadBalancersCommand({ Names: [name] })).catch(() => undefined);
  return (found?.LoadBalancers ?? []).map((lb) => lb.LoadBalancerArn!);
}

async function targetGroupArns(name: string): Promise<string[]> {
  const found = await elb.send(new DescribeTargetGroupsCommand({ Names: [name] })).catch(() => undefined);
  return (found?.TargetGroups ?? []).map((group) => group.TargetGroupArn!);
}

async function resourcesOf(stackName: string) {
  return (await sandbox.backend.store.read({ stackName, region: REGION }))?.document.resources ?? {};
}

describe('a plain create of an ELBv2 load balancer or target group under a taken name', () => {
  it('a load balancer: NAMED_CREATE_COLLISION, nothing created, ending on cdkd import with the holder ARN', async () => {
    await sandbox.deploy('LbOwner', { Lb: balancer('taken-lb') });
    const [holder] = await balancerArns('taken-lb');
    const failure = await deployFails('LbTaken', { Lb: balancer('taken-lb') });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(failure.message.endsWith(`cdkd import LbTaken --resource Lb=${holder}`)).toBe(true);
    expect(await balancerArns('taken-lb')).toEqual([holder]);
    expect(await resourcesOf('LbTaken')).toEqual({});
  });

  it('a target group: the same', async () => {
    await sandbox.deploy('TgOwner', { Tg: targetGroup('taken-tg') });
    const [holder] = await targetGroupArns('taken-tg');
    const failure = await deployFails('TgTaken', { Tg: targetGroup('taken-tg') });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(failure.message.endsWith(`cdkd import TgTaken --resource Tg=${holder}`)).toBe(true);
    expect(await targetGroupArns('taken-tg')).toEqual([holder]);
    expect(await resourcesOf('TgTaken')).toEqual({});
  });

  it('a free name is created as usual', async () => {
    await sandbox.deploy('LbFree', { Lb: balancer('free-lb'), Tg: targetGroup('free-tg') });
    expect(await balancerArns('free-lb')).toHaveLength(1);
    expect(await targetGroupArns('free-tg')).toHaveLength(1);
  });
});

describe('under --prefix-user-supplied-names, the name looked up is the one the create sends', () => {
  it('{stack}-{name} taken: refused; the bare name taken by someone else does not matter', async () => {
    await sandbox.deploy('Bare', { Lb: balancer('shared'), Tg: targetGroup('shared-tg') });
    // Only the bare names are taken: the prefixed create goes ahead.
    await sandbox.deploy(
      'Pfx',
      { Lb: balancer('shared'), Tg: targetGroup('shared-tg') },
      {
        prefixUserSuppliedNames: true,
      },
    );
    expect(await balancerArns('Pfx-shared')).toHaveLength(1);
    expect(await targetGroupArns('Pfx-shared-tg')).toHaveLength(1);

    // A stack whose prefixed name another resource holds is refused.
    await sandbox.deploy('Other', { Lb: balancer('Pfx2-web') });
    const failure = await deployFails('Pfx2', { Lb: balancer('web') }, { prefixUserSuppliedNames: true });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(await balancerArns('Pfx2-web')).toHaveLength(1);
    expect(await resourcesOf('Pfx2')).toEqual({});
  });
});

describe('a replacement onto a name another load balancer or target group holds', () => {
  it('NAMED_REPLACEMENT_COLLISION, with or without --replace: nothing created or deleted', async () => {
    await sandbox.deploy('Someone', { Lb: balancer('theirs-lb'), Tg: targetGroup('theirs-tg') });
    await sandbox.deploy('Rename', { Lb: balancer('mine-lb'), Tg: targetGroup('mine-tg') });
    const before = await resourcesOf('Rename');
    for (const [resources, name] of [
      [{ Lb: balancer('theirs-lb'), Tg: targetGroup('mine-tg') }, 'theirs-lb'],
      [{ Lb: balancer('mine-lb'), Tg: targetGroup('theirs-tg') }, 'theirs-tg'],
    ] as const) {
      for (const replace of [false, true]) {
        const failure = await deployFails('Rename', resources, { replace });
        expect(failure.codes).toEqual(['NAMED_REPLACEMENT_COLLISION']);
        expect(failure.message).toContain(name);
      }
    }
    expect(await resourcesOf('Rename')).toEqual(before);
    expect(await balancerArns('mine-lb')).toEqual([before.Lb!.physicalId]);
    expect(await balancerArns('theirs-lb')).toHaveLength(1);
    expect(await targetGroupArns('theirs-tg')).toHaveLength(1);
  });
});
