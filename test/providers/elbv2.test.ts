import {
  CreateRuleCommand,
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { awsErrorCode } from '../../src/aws/error-class.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { ListenerRuleProvider } from '../../src/providers/elbv2/listener-rule.js';
import { ListenerProvider } from '../../src/providers/elbv2/listener.js';
import { LoadBalancerProvider } from '../../src/providers/elbv2/load-balancer.js';
import { TargetGroupProvider } from '../../src/providers/elbv2/target-group.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { retryClassOf } from '../../src/providers/retry-class.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const REGION = 'us-east-1';
const balancers = new LoadBalancerProvider();
const groups = new TargetGroupProvider();
const listeners = new ListenerProvider();
const rules = new ListenerRuleProvider();
const cc = new CloudControlProvider();
let context: ProviderContext;
let elb: ElasticLoadBalancingV2Client;
let vpcId: string;
let subnets: string[];

const failure = async (call: Promise<unknown>) =>
  (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { name?: string } | undefined;

beforeAll(async () => {
  const clients = new AwsClients({ region: REGION });
  context = { clients, accountId: '000000000000', region: REGION, stackName: 'ElbStack' };
  elb = await clients.client(ElasticLoadBalancingV2Client, REGION);
  const vpc = await cc.create(
    { logicalId: 'Vpc', type: 'AWS::EC2::VPC', properties: { CidrBlock: '10.2.0.0/16' } },
    context,
  );
  vpcId = vpc.physicalId;
  subnets = [];
  for (const [index, zone] of ['us-east-1a', 'us-east-1b'].entries()) {
    const subnet = await cc.create(
      {
        logicalId: `Subnet${index}`,
        type: 'AWS::EC2::Subnet',
        properties: { VpcId: vpcId, CidrBlock: `10.2.${index}.0/24`, AvailabilityZone: zone },
      },
      context,
    );
    subnets.push(subnet.physicalId);
  }
});

describe('ELBv2 SDK providers on the sandbox', () => {
  it('makes a load balancer, target group, listener and rule, updates each in place and deletes them', async () => {
    await fetch(`${sandbox.current.url}/_sandbox/latency`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ types: { 'AWS::ElasticLoadBalancingV2::LoadBalancer': { create: 1200 } } }),
    });
    const lbProperties = {
      Type: 'application',
      Scheme: 'internet-facing',
      Subnets: subnets,
      LoadBalancerAttributes: [{ Key: 'idle_timeout.timeout_seconds', Value: '30' }],
      Tags: [{ Key: 'team', Value: 'a' }],
    };
    const lbRequest = {
      logicalId: 'WebLB',
      type: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
      properties: lbProperties,
      idempotencyToken: 'tok-lb',
    };
    const lb = await balancers.create(lbRequest, context);
    const name = String(lb.attributes.LoadBalancerName);
    // Generated names keep ELB's 32-character limit.
    expect(name.length).toBeLessThanOrEqual(32);
    expect(name).toMatch(/^ElbStack-WebLB-[A-Z0-9]{12}$/);
    expect(lb.attributes).toMatchObject({
      LoadBalancerArn: lb.physicalId,
      CanonicalHostedZoneID: 'Z35SXDOTRQ7X7K',
    });
    expect(String(lb.attributes.LoadBalancerFullName)).toMatch(
      /^app\/ElbStack-WebLB-[A-Z0-9]{12}\/[0-9a-f]+$/,
    );
    const state = async () =>
      (await elb.send(new DescribeLoadBalancersCommand({ LoadBalancerArns: [lb.physicalId] })))
        .LoadBalancers![0]!.State?.Code;
    expect(await state()).toBe('provisioning');
    await balancers.untilUsable({ ...lbRequest, physicalId: lb.physicalId }, context);
    expect(await state()).toBe('active');
    expect(await balancers.locate(lbRequest, context)).toEqual({ physicalId: lb.physicalId });
    const lbLive = await balancers.read({ ...lbRequest, physicalId: lb.physicalId }, context);
    expect(lbLive?.properties.LoadBalancerAttributes).toContainEqual({
      Key: 'idle_timeout.timeout_seconds',
      Value: '30',
    });
    expect(lbLive?.properties.Tags).toEqual([{ Key: 'team', Value: 'a' }]);

    const tgProperties = {
      Port: 80,
      Protocol: 'HTTP',
      VpcId: vpcId,
      TargetType: 'ip',
      HealthCheckPath: '/',
      TargetGroupAttributes: [{ Key: 'deregistration_delay.timeout_seconds', Value: '10' }],
    };
    const tgRequest = {
      logicalId: 'TG',
      type: 'AWS::ElasticLoadBalancingV2::TargetGroup',
      properties: tgProperties,
    };
    const tg = await groups.create(tgRequest, context);
    const listenerProperties = {
      LoadBalancerArn: lb.physicalId,
      Port: 80,
      Protocol: 'HTTP',
      DefaultActions: [{ Type: 'forward', TargetGroupArn: tg.physicalId }],
    };
    const listenerRequest = {
      logicalId: 'Listener',
      type: 'AWS::ElasticLoadBalancingV2::Listener',
      properties: listenerProperties,
      idempotencyToken: 'tok-listener',
    };
    const listener = await listeners.create(listenerRequest, context);
    expect(await listeners.locate(listenerRequest, context)).toEqual({ physicalId: listener.physicalId });
    const ruleProperties = {
      ListenerArn: listener.physicalId,
      Priority: 10,
      Conditions: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/api/*'] } }],
      Actions: [
        {
          Type: 'fixed-response',
          FixedResponseConfig: { StatusCode: '200', ContentType: 'text/plain', MessageBody: 'ok' },
        },
      ],
    };
    const ruleRequest = {
      logicalId: 'Rule',
      type: 'AWS::ElasticLoadBalancingV2::ListenerRule',
      properties: ruleProperties,
    };
    const rule = await rules.create(ruleRequest, context);

    // A listener forwarding to the group names its load balancer on it.
    const { TargetGroups } = await elb.send(
      new DescribeTargetGroupsCommand({ TargetGroupArns: [tg.physicalId] }),
    );
    expect(TargetGroups![0]!.LoadBalancerArns).toEqual([lb.physicalId]);
    // The priority is taken: ELB's PriorityInUse.
    const taken = await failure(elb.send(new CreateRuleCommand(ruleProperties as never)));
    expect(awsErrorCode(taken)).toBe('PriorityInUse');
    // A group a listener forwards to is in use, a refusal the deploy retries while the listener goes.
    const inUse = await failure(groups.delete({ ...tgRequest, physicalId: tg.physicalId }, context));
    expect(awsErrorCode(inUse)).toBe('ResourceInUse');
    expect(retryClassOf(inUse)).toBe('throttling');

    await rules.update(
      {
        ...ruleRequest,
        physicalId: rule.physicalId,
        previousProperties: ruleProperties,
        properties: {
          ...ruleProperties,
          Priority: 20,
          Conditions: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/v2/*'] } }],
        },
      },
      context,
    );
    expect(
      (await rules.read({ ...ruleRequest, physicalId: rule.physicalId }, context))?.properties,
    ).toMatchObject({
      Priority: 20,
      Conditions: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/v2/*'] } }],
    });
    await listeners.update(
      {
        ...listenerRequest,
        physicalId: listener.physicalId,
        previousProperties: listenerProperties,
        properties: { ...listenerProperties, Port: 8080 },
      },
      context,
    );
    expect(
      (await listeners.read({ ...listenerRequest, physicalId: listener.physicalId }, context))?.properties
        .Port,
    ).toBe(8080);
    await groups.update(
      {
        ...tgRequest,
        physicalId: tg.physicalId,
        previousProperties: tgProperties,
        properties: { ...tgProperties, HealthCheckPath: '/health' },
      },
      context,
    );
    expect(
      (await groups.read({ ...tgRequest, physicalId: tg.physicalId }, context))?.properties,
    ).toMatchObject({ HealthCheckPath: '/health' });
    await balancers.update(
      {
        ...lbRequest,
        physicalId: lb.physicalId,
        previousProperties: lbProperties,
        properties: { ...lbProperties, Tags: [] },
      },
      context,
    );
    expect(
      (await balancers.read({ ...lbRequest, physicalId: lb.physicalId }, context))?.properties.Tags,
    ).toBeUndefined();

    for (const [provider, request, id] of [
      [rules, ruleRequest, rule.physicalId],
      [listeners, listenerRequest, listener.physicalId],
      [groups, tgRequest, tg.physicalId],
      [balancers, lbRequest, lb.physicalId],
    ] as const) {
      await provider.delete({ ...request, physicalId: id }, context);
      // Already gone: deleted.
      await provider.delete({ ...request, physicalId: id }, context);
      expect(await provider.read({ ...request, physicalId: id }, context)).toBeUndefined();
    }
  });

  it("answers ELB's codes: a duplicate name with other settings, an unknown load balancer, a bad name", async () => {
    const properties = { Name: 'dup-group', Port: 80, Protocol: 'HTTP', VpcId: vpcId };
    const request = { logicalId: 'Dup', type: 'AWS::ElasticLoadBalancingV2::TargetGroup', properties };
    const first = await groups.create(request, context);
    // Same settings: ELB answers the group already holding the name.
    expect((await groups.create(request, context)).physicalId).toBe(first.physicalId);
    expect(await groups.nameHolder(request, context)).toEqual({
      name: 'dup-group',
      holder: first.physicalId,
    });
    expect(
      awsErrorCode(
        await failure(groups.create({ ...request, properties: { ...properties, Port: 81 } }, context)),
      ),
    ).toBe('DuplicateTargetGroupName');
    const listener = listeners.create(
      {
        logicalId: 'L',
        type: 'AWS::ElasticLoadBalancingV2::Listener',
        properties: {
          LoadBalancerArn: 'arn:aws:elasticloadbalancing:us-east-1:000000000000:loadbalancer/app/none/0123',
          Port: 80,
          Protocol: 'HTTP',
          DefaultActions: [{ Type: 'forward', TargetGroupArn: first.physicalId }],
        },
      },
      context,
    );
    expect(awsErrorCode(await failure(listener))).toBe('LoadBalancerNotFound');
    const badName = balancers.create(
      {
        logicalId: 'Bad',
        type: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
        properties: { Name: '-bad-', Subnets: subnets },
      },
      context,
    );
    expect(awsErrorCode(await failure(badName))).toBe('ValidationError');
  });

  it('modifies through the SDK a target group Cloud Control made (one store)', async () => {
    const properties = { Name: 'cc-group', Port: 80, Protocol: 'HTTP', VpcId: vpcId, HealthCheckPath: '/' };
    const made = await cc.create(
      { logicalId: 'CcTg', type: 'AWS::ElasticLoadBalancingV2::TargetGroup', properties },
      context,
    );
    const request = { logicalId: 'CcTg', type: 'AWS::ElasticLoadBalancingV2::TargetGroup', properties };
    await groups.update(
      {
        ...request,
        physicalId: made.physicalId,
        previousProperties: properties,
        properties: { ...properties, HealthCheckPath: '/ready' },
      },
      context,
    );
    expect((await cc.read({ ...request, physicalId: made.physicalId }, context))?.properties).toMatchObject({
      HealthCheckPath: '/ready',
    });
  });
});
