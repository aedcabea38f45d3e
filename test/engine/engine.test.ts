import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { DeployEvent } from '../../src/engine/events.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo } from '../helpers/recording-io-host.js';

useSandbox();
let backend: StateBackend;
let cloud: FakeCloud;
let events: DeployEvent[];
let stackCounter = 0;

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'engine-test' }));
  backend = await openStateBackend(clients, 'engine-test', 'cdkd');
});

beforeEach(() => {
  cloud = new FakeCloud();
  events = [];
});

async function engine(): Promise<Engine> {
  return createEngine({
    backend,
    clients: new AwsClients(),
    registry: cloud,
    io: eventsTo((event) => events.push(event)),
    command: 'deploy',
    regions: ['us-east-1'],
  });
}

function stack(template: Record<string, unknown>, name = `Stack${++stackCounter}`): StackRequest {
  return { stateName: name, stackName: name, region: 'us-east-1', accountId: '000000000000', template };
}

const options = { concurrency: 4 };

const queueAndTopic = (visibility: number, queueName?: string) => ({
  Resources: {
    Queue: {
      Type: 'AWS::SQS::Queue',
      Properties: { VisibilityTimeout: visibility, ...(queueName ? { QueueName: queueName } : {}) },
    },
    Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::GetAtt': ['Queue', 'Arn'] } } },
  },
  Outputs: { TopicRef: { Value: { Ref: 'Topic' } } },
});

async function recorded(name: string) {
  return (await backend.store.read({ stackName: name, region: 'us-east-1' }))?.document;
}

describe('deploying a stack', () => {
  it('creates dependencies first, records every resource, and resolves outputs', async () => {
    const request = stack(queueAndTopic(30));
    const result = await (await engine()).deploy(request, options);
    expect(cloud.calls.map((c) => `${c.action}:${c.logicalId}`)).toEqual(['create:Queue', 'create:Topic']);
    const topic = cloud.calls[1]!;
    expect(topic.properties).toEqual({ DisplayName: 'arn:fake:queue-1' });
    const doc = await recorded(request.stateName);
    expect(Object.keys(doc!.resources).sort()).toEqual(['Queue', 'Topic']);
    expect(doc!.resources.Topic!.dependencies).toEqual(['Queue']);
    expect(result.outputs.TopicRef!.value).toBe(topic.physicalId);
    expect(doc!.template).toEqual(request.template);
  });

  it('a redeploy of the same template makes no provider call and writes no state', async () => {
    const request = stack(queueAndTopic(30));
    await (await engine()).deploy(request, options);
    const before = await backend.store.read({ stackName: request.stateName, region: 'us-east-1' });
    const objects = () => backend.objects.listKeys(`cdkd/${request.stateName}/`);
    const objectsBefore = await objects();
    cloud.calls.length = 0;
    const again = await (await engine()).deploy(request, options);
    expect(cloud.calls).toEqual([]);
    expect(again.changed).toBe(false);
    const after = await backend.store.read({ stackName: request.stateName, region: 'us-east-1' });
    expect(after!.etag).toBe(before!.etag);
    // Nor a journal or an event.
    expect(await objects()).toEqual(objectsBefore);
  });

  it('updates in place, and a reader whose input did not change is skipped', async () => {
    const request = stack(queueAndTopic(30));
    await (await engine()).deploy(request, options);
    cloud.calls.length = 0;
    await (await engine()).deploy({ ...request, template: queueAndTopic(60) }, options);
    expect(cloud.calls.map((c) => `${c.action}:${c.logicalId}`)).toEqual(['update:Queue']);
    expect((await recorded(request.stateName))!.resources.Queue!.properties).toEqual({
      VisibilityTimeout: 60,
    });
  });

  it('replaces on a create-only change: new first, readers follow, old deleted last', async () => {
    const request = stack(queueAndTopic(30, 'first-name'));
    await (await engine()).deploy(request, options);
    cloud.calls.length = 0;
    await (await engine()).deploy({ ...request, template: queueAndTopic(30, 'second-name') }, options);
    expect(cloud.calls.map((c) => `${c.action}:${c.logicalId}:${c.physicalId}`)).toEqual([
      'create:Queue:queue-3',
      'update:Topic:topic-2',
      'delete:Queue:queue-1',
    ]);
    expect(cloud.calls[1]!.properties).toEqual({ DisplayName: 'arn:fake:queue-3' });
    const doc = await recorded(request.stateName);
    expect(doc!.resources.Queue!.physicalId).toBe('queue-3');
    expect(doc!.pendingDeletes).toEqual([]);
    expect(cloud.liveIds()).toEqual(['queue-3', 'topic-2']);
  });

  it('removes a resource no longer in the template, dependents before dependencies', async () => {
    const request = stack(queueAndTopic(30));
    await (await engine()).deploy(request, options);
    cloud.calls.length = 0;
    await (
      await engine()
    ).deploy({ ...request, template: { Resources: { Other: { Type: 'AWS::SNS::Topic' } } } }, options);
    expect(cloud.calls.map((c) => `${c.action}:${c.logicalId}`)).toEqual([
      'create:Other',
      'delete:Topic',
      'delete:Queue',
    ]);
    expect(Object.keys((await recorded(request.stateName))!.resources)).toEqual(['Other']);
  });

  it('a Type change replaces through both types', async () => {
    const request = stack({ Resources: { Thing: { Type: 'AWS::SQS::Queue' } } });
    await (await engine()).deploy(request, options);
    cloud.calls.length = 0;
    await (
      await engine()
    ).deploy({ ...request, template: { Resources: { Thing: { Type: 'AWS::SNS::Topic' } } } }, options);
    expect(cloud.calls.map((c) => `${c.action}:${c.type}`)).toEqual([
      'create:AWS::SNS::Topic',
      'delete:AWS::SQS::Queue',
    ]);
  });

  it('with --no-rollback, a failure stops new work, lets siblings finish, and records exactly what exists', async () => {
    const template = {
      Resources: {
        A: { Type: 'AWS::SQS::Queue' },
        B: { Type: 'AWS::SQS::Queue' },
        C: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { Ref: 'A' } } },
      },
    };
    cloud.failOn.add('create:B');
    const request = stack(template);
    await expect((await engine()).deploy(request, { ...options, rollback: false })).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
      message: expect.stringContaining('injected create failure on B'),
    });
    const doc = await recorded(request.stateName);
    const recordedIds = Object.values(doc!.resources)
      .map((r) => r.physicalId)
      .sort();
    expect(recordedIds).toEqual(cloud.liveIds());
    expect(events.some((e) => e.kind === 'resource' && e.logicalId === 'B' && e.status === 'failed')).toBe(
      true,
    );
  });

  it('refuses an unsupported type before touching anything', async () => {
    const request = stack({
      Resources: { Q: { Type: 'AWS::SQS::Queue' }, Weird: { Type: 'Custom::Thing' } },
    });
    await expect((await engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'UNSUPPORTED_RESOURCE_TYPE',
    });
    expect(cloud.calls).toEqual([]);
    expect(await recorded(request.stateName)).toBeUndefined();
  });

  it('refuses a transform only CloudFormation can expand', async () => {
    const request = stack({
      Transform: 'AWS::Serverless-2016-10-31',
      Resources: { Q: { Type: 'AWS::SQS::Queue' } },
    });
    await expect((await engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'TRANSFORM_UNSUPPORTED',
      message: expect.stringContaining('AWS::Serverless-2016-10-31'),
    });
    expect(cloud.calls).toEqual([]);
  });

  it('--dry-run plans and touches nothing', async () => {
    const request = stack(queueAndTopic(30));
    const result = await (await engine()).deploy(request, { ...options, dryRun: true });
    expect(result.plan.operations.map((op) => `${op.kind}:${op.logicalId}`)).toEqual([
      'create:Queue',
      'create:Topic',
    ]);
    expect(cloud.calls).toEqual([]);
    expect(await recorded(request.stateName)).toBeUndefined();
  });

  it('never stores a NoEcho value, but sends it', async () => {
    const request = {
      ...stack({
        Parameters: { Secret: { Type: 'String', NoEcho: true } },
        Resources: {
          Q: { Type: 'AWS::SQS::Queue', Properties: { Tags: [{ Key: 's', Value: { Ref: 'Secret' } }] } },
        },
        Outputs: { Echo: { Value: { Ref: 'Secret' } } },
      }),
      parameters: { Secret: 'hunter2' },
    };
    await (await engine()).deploy(request, options);
    expect(cloud.calls[0]!.properties).toEqual({ Tags: [{ Key: 's', Value: 'hunter2' }] });
    const text = JSON.stringify(await recorded(request.stateName));
    expect(text).not.toContain('hunter2');
    expect(text).toContain('***');
  });
});

describe('dynamic references', () => {
  it('are resolved only in what is sent; state keeps the reference', async () => {
    const clients = new AwsClients();
    await (
      await clients.ssm()
    ).send(new PutParameterCommand({ Name: '/app/size', Value: '42', Type: 'String' }));
    await (
      await clients.client(SecretsManagerClient)
    ).send(new CreateSecretCommand({ Name: 'app-secret', SecretString: '{"password":"s3cret"}' }));
    const request = stack({
      Resources: {
        Q: {
          Type: 'AWS::SQS::Queue',
          Properties: {
            DelaySeconds: '{{resolve:ssm:/app/size}}',
            Tags: [{ Key: 'p', Value: '{{resolve:secretsmanager:app-secret:SecretString:password}}' }],
          },
        },
      },
    });
    await (await engine()).deploy(request, options);
    expect(cloud.calls[0]!.properties).toEqual({ DelaySeconds: '42', Tags: [{ Key: 'p', Value: 's3cret' }] });
    const text = JSON.stringify(await recorded(request.stateName));
    expect(text).not.toContain('s3cret');
    expect(text).toContain('{{resolve:secretsmanager:app-secret:SecretString:password}}');
  });
});

describe('exports and imports', () => {
  const exporter = (exported: boolean) => ({
    Resources: { Q: { Type: 'AWS::SQS::Queue' } },
    Outputs: exported ? { Name: { Value: { Ref: 'Q' }, Export: { Name: 'shared-queue' } } } : {},
  });
  const importer = {
    Resources: {
      T: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::ImportValue': 'shared-queue' } } },
    },
  };

  it('resolves Fn::ImportValue across stacks and refuses to remove an export still imported', async () => {
    const producer = stack(exporter(true), 'Producer');
    await (await engine()).deploy(producer, options);
    await (await engine()).deploy(stack(importer, 'Consumer'), options);
    // A no-op redeploy evaluates nothing for real: the import must still be recorded.
    await (await engine()).deploy(stack(importer, 'Consumer'), options);
    expect((await recorded('Consumer'))!.imports).toEqual(['shared-queue']);
    const queueId = (await recorded('Producer'))!.resources.Q!.physicalId;
    expect(cloud.calls.find((c) => c.logicalId === 'T')!.properties).toEqual({ DisplayName: queueId });

    cloud.calls.length = 0;
    await expect(
      (await engine()).deploy({ ...producer, template: exporter(false) }, options),
    ).rejects.toMatchObject({
      code: 'EXPORT_IN_USE',
      message: expect.stringContaining('shared-queue (imported by Consumer)'),
    });
    await expect((await engine()).destroy(producer, options)).rejects.toMatchObject({
      code: 'EXPORT_IN_USE',
    });
    expect(cloud.calls).toEqual([]);

    await (await engine()).destroy(stack(importer, 'Consumer'), options);
    await (await engine()).deploy({ ...producer, template: exporter(false) }, options);
  });

  it('a missing export is a clear error naming it', async () => {
    await expect(
      (await engine()).deploy(
        stack({
          Resources: {
            T: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::ImportValue': 'nope' } } },
          },
        }),
        options,
      ),
    ).rejects.toMatchObject({ code: 'IMPORT_NOT_FOUND' });
  });
});

describe('destroying a stack', () => {
  it('deletes dependents first, keeps Retain resources, and removes the state', async () => {
    const request = stack({
      Resources: {
        Kept: { Type: 'AWS::SQS::Queue', DeletionPolicy: 'Retain' },
        Queue: { Type: 'AWS::SQS::Queue' },
        Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { Ref: 'Queue' } } },
      },
    });
    await (await engine()).deploy(request, options);
    const keptId = (await recorded(request.stateName))!.resources.Kept!.physicalId;
    cloud.calls.length = 0;
    const result = await (await engine()).destroy(request, options);
    expect(cloud.calls.map((c) => `${c.action}:${c.logicalId}`)).toEqual(['delete:Topic', 'delete:Queue']);
    expect(result.retained).toEqual(['Kept']);
    expect(cloud.liveIds()).toEqual([keptId]);
    expect(await recorded(request.stateName)).toBeUndefined();
  });

  it('a stack with no state is reported as not found', async () => {
    expect((await (await engine()).destroy(stack({ Resources: {} }, 'Never'), options)).found).toBe(false);
  });
});

describe('nested stacks', () => {
  it('a child whose create failed partway (--no-rollback) is destroyed with its parent, though the parent never recorded it', async () => {
    const child = {
      Resources: {
        Made: { Type: 'AWS::SQS::Queue' },
        Broken: { Type: 'AWS::SNS::Topic', DependsOn: 'Made' },
      },
    };
    const request: StackRequest = {
      ...stack({
        Resources: { Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'x' } } },
      }),
      nested: new Map([['Child', { template: child, nested: new Map() }]]),
    };
    cloud.failOn.add('create:Broken');
    await expect((await engine()).deploy(request, { ...options, rollback: false })).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    expect((await recorded(request.stateName))?.resources ?? {}).toEqual({});
    expect(Object.keys((await recorded(`${request.stateName}/Child`))!.resources)).toEqual(['Made']);
    expect(cloud.liveIds()).toHaveLength(1);

    await (await engine()).destroy(request, options);
    expect(cloud.liveIds()).toEqual([]);
    expect(await recorded(`${request.stateName}/Child`)).toBeUndefined();
  });

  it('an unsupported type anywhere in the nested tree is refused before the parent is touched', async () => {
    const grandchild = { Resources: { Odd: { Type: 'Custom::Thing' } } };
    const request: StackRequest = {
      ...stack({
        Resources: {
          First: { Type: 'AWS::SQS::Queue' },
          Child: { Type: 'AWS::CloudFormation::Stack', DependsOn: 'First', Properties: { TemplateURL: 'x' } },
        },
      }),
      nested: new Map([
        [
          'Child',
          {
            template: {
              Resources: { Grand: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'y' } } },
            },
            nested: new Map([['Grand', { template: grandchild, nested: new Map() }]]),
          },
        ],
      ]),
    };
    await expect((await engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'UNSUPPORTED_RESOURCE_TYPE',
      message: expect.stringContaining('Child/Grand/Odd'),
    });
    expect(cloud.calls).toEqual([]);
  });

  it("a parent's unsupported types and its children's are named in one refusal", async () => {
    const request: StackRequest = {
      ...stack({
        Resources: {
          Own: { Type: 'Custom::Parent' },
          Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'x' } },
        },
      }),
      nested: new Map([
        ['Child', { template: { Resources: { Deep: { Type: 'Custom::Child' } } }, nested: new Map() }],
      ]),
    };
    const refusal = (await engine()).deploy(request, options);
    await expect(refusal).rejects.toMatchObject({ code: 'UNSUPPORTED_RESOURCE_TYPE' });
    await expect(refusal).rejects.toThrow('Custom::Child (Child/Deep); Custom::Parent (Own)');
    expect(cloud.calls).toEqual([]);
  });

  it("CDK's metadata record in a nested template is skipped, as at top level", async () => {
    const metadata = { Type: 'AWS::CDK::Metadata', Properties: { Analytics: 'v2:deflate64:x' } };
    const request: StackRequest = {
      ...stack({
        Resources: {
          CDKMetadata: metadata,
          Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'x' } },
        },
      }),
      nested: new Map([
        [
          'Child',
          {
            template: { Resources: { Inner: { Type: 'AWS::SQS::Queue' }, CDKMetadata: metadata } },
            nested: new Map(),
          },
        ],
      ]),
    };
    await (await engine()).deploy(request, options);
    expect(cloud.calls.map((c) => `${c.action}:${c.logicalId}`)).toEqual(['create:Inner']);
    expect(Object.keys((await recorded(`${request.stateName}/Child`))!.resources)).toEqual(['Inner']);
  });

  it('deploys the child as its own stack and reads its outputs', async () => {
    const child = {
      Parameters: { Input: { Type: 'String' } },
      Resources: { Inner: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { Ref: 'Input' } } } },
      Outputs: { InnerId: { Value: { Ref: 'Inner' } } },
    };
    const request: StackRequest = {
      ...stack(
        {
          Resources: {
            Child: {
              Type: 'AWS::CloudFormation::Stack',
              Properties: { TemplateURL: 'x', Parameters: { Input: 'from-parent' } },
            },
            Reader: {
              Type: 'AWS::SNS::Topic',
              Properties: { DisplayName: { 'Fn::GetAtt': ['Child', 'Outputs.InnerId'] } },
            },
          },
        },
        'Parent',
      ),
      nested: new Map([['Child', { template: child, nested: new Map() }]]),
    };
    await (await engine()).deploy(request, options);
    expect(cloud.calls.find((c) => c.logicalId === 'Inner')!.properties).toEqual({
      QueueName: 'from-parent',
    });
    const innerId = cloud.calls.find((c) => c.logicalId === 'Inner')!.physicalId;
    expect(cloud.calls.find((c) => c.logicalId === 'Reader')!.properties).toEqual({ DisplayName: innerId });
    expect((await recorded('Parent/Child'))!.resources.Inner!.physicalId).toBe(innerId);

    await (await engine()).destroy(request, options);
    expect(cloud.liveIds()).toEqual([]);
    expect(await recorded('Parent/Child')).toBeUndefined();
  });
});
