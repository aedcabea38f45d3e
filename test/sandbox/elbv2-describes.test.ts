import { CreateResourceCommand, type CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import {
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, settle } from './helpers.js';

let sandbox: Sandbox;
let elb: ElasticLoadBalancingV2Client;
let cc: CloudControlClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  elb = new ElasticLoadBalancingV2Client({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
  cc = cloudControlClient(sandbox);
});
afterAll(async () => {
  elb.destroy();
  cc.destroy();
  await sandbox.stop();
});

async function create(type: string, properties: Record<string, unknown>): Promise<string> {
  const accepted = await cc.send(
    new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(properties) }),
  );
  const { event } = await settle(cc, accepted.ProgressEvent!);
  return event.Identifier!;
}

describe('ELBv2 describes by name, as ELB answers them', () => {
  it('DescribeLoadBalancers by Names finds a load balancer under its Name; a name none holds fails the call', async () => {
    const arn = await create('AWS::ElasticLoadBalancingV2::LoadBalancer', {
      Name: 'named-lb',
      Type: 'application',
    });
    const found = await elb.send(new DescribeLoadBalancersCommand({ Names: ['named-lb'] }));
    expect(found.LoadBalancers).toMatchObject([{ LoadBalancerArn: arn, LoadBalancerName: 'named-lb' }]);
    const missing = await failure(
      elb.send(new DescribeLoadBalancersCommand({ Names: ['named-lb', 'absent'] })),
    );
    expect(missing).toMatchObject({ name: 'LoadBalancerNotFoundException', status: 400 });
  });

  it('DescribeTargetGroups by Names or ARNs; a name or ARN none holds fails with TargetGroupNotFound', async () => {
    const arn = await create('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Name: 'named-tg',
      Port: 8080,
      Protocol: 'HTTP',
    });
    expect(
      (await elb.send(new DescribeTargetGroupsCommand({ Names: ['named-tg'] }))).TargetGroups,
    ).toMatchObject([{ TargetGroupArn: arn, TargetGroupName: 'named-tg', Port: 8080, Protocol: 'HTTP' }]);
    expect(
      (await elb.send(new DescribeTargetGroupsCommand({ TargetGroupArns: [arn] }))).TargetGroups,
    ).toHaveLength(1);
    for (const input of [{ Names: ['absent-tg'] }, { TargetGroupArns: [`${arn}0`] }]) {
      expect(await failure(elb.send(new DescribeTargetGroupsCommand(input)))).toMatchObject({
        name: 'TargetGroupNotFoundException',
        status: 400,
      });
    }
  });
});
