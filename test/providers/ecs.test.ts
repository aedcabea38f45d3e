import {
  CreateClusterCommand,
  DeleteClusterCommand,
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  ECSClient,
  UpdateServiceCommand,
} from '@aws-sdk/client-ecs';
import { EC2Client } from '@aws-sdk/client-ec2';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { ClusterProvider } from '../../src/providers/ecs/cluster.js';
import { ServiceProvider } from '../../src/providers/ecs/service.js';
import { TaskDefinitionProvider } from '../../src/providers/ecs/task-definition.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const REGION = 'us-east-1';
const clusters = new ClusterProvider();
const taskDefinitions = new TaskDefinitionProvider();
const services = new ServiceProvider();
const cc = new CloudControlProvider();
let context: ProviderContext;
let ecs: ECSClient;
let subnetId: string;

const CONTAINER = {
  Name: 'web',
  Image: 'nginx:1.25',
  Essential: true,
  PortMappings: [{ ContainerPort: 80, Protocol: 'tcp' }],
  DockerLabels: { 'com.example.Team': 'a' },
  LogConfiguration: { LogDriver: 'awslogs', Options: { 'awslogs-group': 'g', 'awslogs-region': REGION } },
};
const fargate = (family: string, image = 'nginx:1.25') => ({
  Family: family,
  Cpu: '256',
  Memory: '512',
  NetworkMode: 'awsvpc',
  RequiresCompatibilities: ['FARGATE'],
  ContainerDefinitions: [{ ...CONTAINER, Image: image }],
});

const failure = async (call: Promise<unknown>) =>
  (
    (await call.then(
      () => undefined,
      (e: unknown) => e,
    )) as { name?: string } | undefined
  )?.name;

beforeAll(async () => {
  const clients = new AwsClients({ region: REGION });
  context = { clients, accountId: '000000000000', region: REGION, stackName: 'EcsStack' };
  ecs = await clients.client(ECSClient, REGION);
  await clients.client(EC2Client, REGION);
  const vpc = await cc.create(
    { logicalId: 'Vpc', type: 'AWS::EC2::VPC', properties: { CidrBlock: '10.1.0.0/16' } },
    context,
  );
  const subnet = await cc.create(
    {
      logicalId: 'Subnet',
      type: 'AWS::EC2::Subnet',
      properties: { VpcId: vpc.physicalId, CidrBlock: '10.1.0.0/24' },
    },
    context,
  );
  subnetId = subnet.physicalId;
});

describe('ECS SDK providers on the sandbox', () => {
  it('covers what a CDK Fargate service sends and leaves rarities to Cloud Control', () => {
    const type = 'AWS::ECS::Service';
    expect(
      services.uncoveredProperties(type, { Cluster: 'c', TaskDefinition: 't', LoadBalancers: [] }),
    ).toEqual([]);
    expect(services.uncoveredProperties(type, { Cluster: 'c', ServiceConnectConfiguration: {} })).toEqual([
      'ServiceConnectConfiguration',
    ]);
  });

  it('creates a cluster by a generated name, updates its settings and tags, reads it, deletes it and deletes it again', async () => {
    const request = {
      logicalId: 'Cluster',
      type: 'AWS::ECS::Cluster',
      properties: { Tags: [{ Key: 'team', Value: 'a' }] },
      idempotencyToken: 'tok-cluster-1',
    };
    const made = await clusters.create(request, context);
    expect(made.physicalId).toMatch(/^EcsStack-Cluster-[A-Z0-9]{12}$/);
    expect(made.attributes.Arn).toBe(`arn:aws:ecs:${REGION}:000000000000:cluster/${made.physicalId}`);
    expect(await clusters.locate(request, context)).toEqual({ physicalId: made.physicalId });
    const settings = [{ Name: 'containerInsights', Value: 'enabled' }];
    await clusters.update(
      {
        ...request,
        physicalId: made.physicalId,
        previousProperties: request.properties,
        properties: { ClusterSettings: settings, Tags: [{ Key: 'team', Value: 'b' }] },
      },
      context,
    );
    const live = await clusters.read({ ...request, physicalId: made.physicalId }, context);
    expect(live?.properties).toMatchObject({
      ClusterSettings: settings,
      Tags: [{ Key: 'team', Value: 'b' }],
    });
    // Cloud Control reads the same cluster by the same identifier.
    expect((await cc.read({ ...request, physicalId: made.physicalId }, context))?.properties).toMatchObject({
      ClusterName: made.physicalId,
    });
    await clusters.delete({ ...request, physicalId: made.physicalId }, context);
    await clusters.delete({ ...request, physicalId: made.physicalId }, context);
    expect(await clusters.read({ ...request, physicalId: made.physicalId }, context)).toBeUndefined();
    expect(await clusters.locate(request, context)).toBe('none');
  });

  it('registers task definitions as numbered revisions, replaces on any change but tags, deregisters to INACTIVE', async () => {
    const request = {
      logicalId: 'TaskDef',
      type: 'AWS::ECS::TaskDefinition',
      properties: fargate('web-family'),
      idempotencyToken: 'tok-td-1',
    };
    const first = await taskDefinitions.create(request, context);
    expect(first.physicalId).toBe(`arn:aws:ecs:${REGION}:000000000000:task-definition/web-family:1`);
    const second = await taskDefinitions.create(
      { ...request, properties: fargate('web-family', 'nginx:1.27'), idempotencyToken: 'tok-td-2' },
      context,
    );
    expect(second.physicalId).toMatch(/web-family:2$/);
    expect(taskDefinitions.canUpdateInPlace(request.type, ['ContainerDefinitions'])).toBe(false);
    expect(taskDefinitions.canUpdateInPlace(request.type, ['Tags'])).toBe(true);
    // Labels and log options are data: their keys reach ECS unchanged; the rest in ECS's camelCase.
    const { taskDefinition } = await ecs.send(
      new DescribeTaskDefinitionCommand({ taskDefinition: first.physicalId }),
    );
    expect(taskDefinition?.containerDefinitions?.[0]).toMatchObject({
      portMappings: [{ containerPort: 80, protocol: 'tcp' }],
      dockerLabels: { 'com.example.Team': 'a' },
      logConfiguration: { logDriver: 'awslogs', options: { 'awslogs-group': 'g' } },
    });
    const live = await taskDefinitions.read({ ...request, physicalId: first.physicalId }, context);
    expect(live?.properties).toMatchObject(fargate('web-family'));
    expect(await taskDefinitions.locate(request, context)).toEqual({ physicalId: first.physicalId });
    await taskDefinitions.delete({ ...request, physicalId: first.physicalId }, context);
    await taskDefinitions.delete({ ...request, physicalId: first.physicalId }, context);
    const after = await ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition: first.physicalId }));
    expect(after.taskDefinition?.status).toBe('INACTIVE');
    expect(await taskDefinitions.read({ ...request, physicalId: first.physicalId }, context)).toBeUndefined();
    // A new revision after a deregistered one never reuses its number.
    const third = await taskDefinitions.create({ ...request, idempotencyToken: 'tok-td-3' }, context);
    expect(third.physicalId).toMatch(/web-family:3$/);
  });

  it('refuses a Fargate task definition without awsvpc, as ECS does', async () => {
    const properties = { ...fargate('bad-family'), NetworkMode: 'bridge' };
    expect(
      await failure(
        taskDefinitions.create({ logicalId: 'Bad', type: 'AWS::ECS::TaskDefinition', properties }, context),
      ),
    ).toBe('ClientException');
  });

  it('creates a service, waits for it to be stable, updates it with a new deployment, deletes it to INACTIVE', async () => {
    await fetch(`${sandbox.current.url}/_sandbox/latency`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ types: { 'AWS::ECS::Service': { create: 1500, update: 1500, delete: 1500 } } }),
    });
    const cluster = await clusters.create(
      { logicalId: 'C', type: 'AWS::ECS::Cluster', properties: { ClusterName: 'svc-cluster' } },
      context,
    );
    const td1 = await taskDefinitions.create(
      { logicalId: 'T', type: 'AWS::ECS::TaskDefinition', properties: fargate('svc-family') },
      context,
    );
    const td2 = await taskDefinitions.create(
      { logicalId: 'T', type: 'AWS::ECS::TaskDefinition', properties: fargate('svc-family', 'nginx:1.27') },
      context,
    );
    const properties = {
      Cluster: cluster.physicalId,
      TaskDefinition: td1.physicalId,
      DesiredCount: 2,
      LaunchType: 'FARGATE',
      NetworkConfiguration: { AwsvpcConfiguration: { Subnets: [subnetId], AssignPublicIp: 'ENABLED' } },
      DeploymentConfiguration: { MinimumHealthyPercent: 50, MaximumPercent: 200 },
    };
    const request = {
      logicalId: 'Service',
      type: 'AWS::ECS::Service',
      properties,
      idempotencyToken: 'tok-svc-1',
    };
    const made = await services.create(request, context);
    expect(made.physicalId).toMatch(
      /^arn:aws:ecs:us-east-1:000000000000:service\/svc-cluster\/EcsStack-Service-[A-Z0-9]{12}$/,
    );
    expect(made.attributes.Name).toBe(made.physicalId.split('/').pop());
    const describe = async () =>
      (await ecs.send(new DescribeServicesCommand({ cluster: 'svc-cluster', services: [made.physicalId] })))
        .services![0]!;
    expect((await describe()).deployments?.[0]?.rolloutState).toBe('IN_PROGRESS');
    await services.untilUsable({ ...request, physicalId: made.physicalId }, context);
    expect(await describe()).toMatchObject({ runningCount: 2, desiredCount: 2, status: 'ACTIVE' });
    expect(await services.locate(request, context)).toEqual({ physicalId: made.physicalId });

    await services.update(
      {
        ...request,
        physicalId: made.physicalId,
        previousProperties: properties,
        properties: { ...properties, TaskDefinition: td2.physicalId, DesiredCount: 3 },
      },
      context,
    );
    expect(await describe()).toMatchObject({
      taskDefinition: td2.physicalId,
      runningCount: 3,
      deployments: [{ rolloutState: 'COMPLETED' }],
    });

    // The cluster holds an active service: ECS refuses to delete it.
    expect(await failure(ecs.send(new DeleteClusterCommand({ cluster: 'svc-cluster' })))).toBe(
      'ClusterContainsServicesException',
    );
    await services.delete({ ...request, physicalId: made.physicalId }, context);
    expect((await describe()).status).toBe('INACTIVE');
    expect(
      await failure(
        ecs.send(
          new UpdateServiceCommand({ cluster: 'svc-cluster', service: made.physicalId, desiredCount: 1 }),
        ),
      ),
    ).toBe('ServiceNotActiveException');
    await services.delete({ ...request, physicalId: made.physicalId }, context);
    expect(await services.read({ ...request, physicalId: made.physicalId }, context)).toBeUndefined();
    await clusters.delete({ ...request, physicalId: 'svc-cluster' }, context);
  });

  it("answers ECS's error codes for a missing cluster, service or parameter", async () => {
    expect(await failure(ecs.send(new UpdateServiceCommand({ cluster: 'no-such', service: 's' })))).toBe(
      'ClusterNotFoundException',
    );
    await ecs.send(new CreateClusterCommand({ clusterName: 'err-cluster' }));
    expect(
      await failure(ecs.send(new UpdateServiceCommand({ cluster: 'err-cluster', service: 'none' }))),
    ).toBe('ServiceNotFoundException');
    const td = await taskDefinitions.create(
      { logicalId: 'T', type: 'AWS::ECS::TaskDefinition', properties: fargate('err-family') },
      context,
    );
    const noNetwork = services.create(
      {
        logicalId: 'S',
        type: 'AWS::ECS::Service',
        properties: { Cluster: 'err-cluster', TaskDefinition: td.physicalId, LaunchType: 'FARGATE' },
      },
      context,
    );
    expect(await failure(noNetwork)).toBe('InvalidParameterException');
  });

  it('updates through the SDK a service Cloud Control made (one store)', async () => {
    await ecs.send(new CreateClusterCommand({ clusterName: 'cc-cluster' }));
    const td = await taskDefinitions.create(
      {
        logicalId: 'T',
        type: 'AWS::ECS::TaskDefinition',
        properties: { ...fargate('cc-family'), NetworkMode: 'bridge', RequiresCompatibilities: ['EC2'] },
      },
      context,
    );
    const properties = { Cluster: 'cc-cluster', TaskDefinition: td.physicalId, DesiredCount: 1 };
    const made = await cc.create({ logicalId: 'S', type: 'AWS::ECS::Service', properties }, context);
    const arn = made.ref ?? made.physicalId.split('|')[0]!;
    const request = { logicalId: 'S', type: 'AWS::ECS::Service', properties };
    await services.update(
      {
        ...request,
        physicalId: arn,
        previousProperties: properties,
        properties: { ...properties, DesiredCount: 4 },
      },
      context,
    );
    const live = await services.read({ ...request, physicalId: arn }, context);
    expect(live?.properties).toMatchObject({ DesiredCount: 4, TaskDefinition: td.physicalId });
  });
});
