import {
  GetSubscriptionAttributesCommand,
  GetTopicAttributesCommand,
  ListSubscriptionsByTopicCommand,
  SNSClient,
} from '@aws-sdk/client-sns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResourceMadeError, type ProviderContext } from '../../src/providers/provider.js';
import { defaultTopicPolicy } from '../../src/providers/sns/common.js';
import { registerSns } from '../../src/providers/sns/index.js';
import { SubscriptionProvider } from '../../src/providers/sns/subscription.js';
import { TopicPolicyProvider } from '../../src/providers/sns/topic-policy.js';
import { generatedTopicName, TopicProvider } from '../../src/providers/sns/topic.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { ACCOUNT, engineWith, providerContext, startProviderSandbox } from './sqs-helpers.js';

let sandbox: Sandbox;
let context: ProviderContext;
let sns: SNSClient;
const topics = new TopicProvider();
const subscriptions = new SubscriptionProvider();
const policies = new TopicPolicyProvider();
const TOPIC = 'AWS::SNS::Topic';
const SUBSCRIPTION = 'AWS::SNS::Subscription';
const arnOf = (name: string) => `arn:aws:sns:us-east-1:${ACCOUNT}:${name}`;
const queueArn = (name: string) => `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`;

beforeAll(async () => {
  sandbox = await startProviderSandbox();
  context = providerContext('Notify');
  sns = await context.clients.client(SNSClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox));
afterAll(async () => {
  await sandbox.stop();
});

const topicAttributes = async (arn: string) =>
  (await sns.send(new GetTopicAttributesCommand({ TopicArn: arn }))).Attributes!;
const endpoints = async (arn: string) =>
  ((await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: arn }))).Subscriptions ?? []).map(
    (s) => s.Endpoint,
  );

describe('AWS::SNS::Topic provider', () => {
  it('creates with inline subscriptions, updates in place, reads back and deletes', async () => {
    const properties = {
      TopicName: 'alerts',
      DisplayName: 'Alerts',
      Tags: [{ Key: 'team', Value: 'a' }],
      Subscription: [{ Protocol: 'sqs', Endpoint: queueArn('one') }],
    };
    const created = await topics.create({ logicalId: 'Alerts', type: TOPIC, properties }, context);
    expect(created.physicalId).toBe(arnOf('alerts'));
    expect(await endpoints(created.physicalId)).toEqual([queueArn('one')]);

    const next = {
      TopicName: 'alerts',
      KmsMasterKeyId: 'alias/aws/sns',
      Tags: [{ Key: 'team', Value: 'b' }],
      Subscription: [{ Protocol: 'sqs', Endpoint: queueArn('two') }],
    };
    expect(topics.canUpdateInPlace(TOPIC, ['DisplayName', 'KmsMasterKeyId', 'Tags', 'Subscription'])).toBe(
      true,
    );
    await topics.update(
      {
        logicalId: 'Alerts',
        type: TOPIC,
        physicalId: created.physicalId,
        properties: next,
        previousProperties: properties,
      },
      context,
    );
    expect(await topicAttributes(created.physicalId)).toMatchObject({
      DisplayName: '',
      KmsMasterKeyId: 'alias/aws/sns',
    });
    expect(await endpoints(created.physicalId)).toEqual([queueArn('two')]);
    const request = { logicalId: 'Alerts', type: TOPIC, physicalId: created.physicalId, properties: next };
    // A standard topic reads back as FifoTopic false, what a template may say of it.
    expect((await topics.read(request, context))!.properties).toEqual({ ...next, FifoTopic: false });

    await topics.delete(request, context);
    expect(await topics.read(request, context)).toBeUndefined();
    await topics.delete(request, context);
  });

  it('generates names within 256 characters, a FIFO name keeping .fifo', async () => {
    const fifo = generatedTopicName('S'.repeat(300), 'L'.repeat(300), true);
    expect(fifo).toHaveLength(256);
    expect(fifo.endsWith('.fifo')).toBe(true);
    expect(generatedTopicName('S'.repeat(300), 'L'.repeat(300), false)).toHaveLength(256);
    const created = await topics.create(
      { logicalId: 'Jobs', type: TOPIC, properties: { FifoTopic: 'true' } },
      context,
    );
    expect(created.attributes.TopicName).toMatch(/^Notify-Jobs-[A-Z0-9]{12}\.fifo$/);
    expect((await topicAttributes(created.physicalId)).FifoTopic).toBe('true');
  });

  it('a retried create of an unnamed topic (same idempotency token) gets the same topic', async () => {
    const request = {
      logicalId: 'Retry',
      type: TOPIC,
      properties: { DisplayName: 'd' },
      idempotencyToken: 'sns-create',
    };
    const first = await topics.create(request, context);
    expect((await topics.create(request, context)).physicalId).toBe(first.physicalId);
  });

  it('reports an unnamed topic made when a subscription fails; the retry gets that same topic', async () => {
    const properties = { Subscription: [{ Protocol: 'sqs', Endpoint: queueArn('made') }] };
    const request = { logicalId: 'Half', type: TOPIC, properties, idempotencyToken: 'sns-half' };
    await failNext(sandbox, 'sns', 'Subscribe', { errorCode: 'InvalidParameter' });
    const made = await madeError(topics.create(request, context), 'InvalidParameter');
    expect(made.made.physicalId).toMatch(/:Notify-Half-[A-Z0-9]+$/);
    const live = await topics.read({ ...request, physicalId: made.made.physicalId }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    const retried = await topics.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
    expect(await endpoints(retried.physicalId)).toEqual([queueArn('made')]);
  });

  it('passes the subscription failure of a named topic through: CreateTopic may have returned one it found', async () => {
    await failNext(sandbox, 'sns', 'Subscribe', { errorCode: 'InvalidParameter' });
    const properties = {
      TopicName: 'named-half',
      Subscription: [{ Protocol: 'sqs', Endpoint: queueArn('x') }],
    };
    const error = await topics
      .create({ logicalId: 'Named', type: TOPIC, properties }, context)
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ResourceMadeError);
    expect(error).toMatchObject({ message: 'injected Subscribe failure' });
  });

  it('reports create-only and uncovered properties', () => {
    expect(topics.canUpdateInPlace(TOPIC, ['TopicName'])).toBe(false);
    expect(topics.canUpdateInPlace(TOPIC, ['FifoTopic'])).toBe(false);
    expect(topics.uncoveredProperties(TOPIC, { DisplayName: 'x', DeliveryStatusLogging: [] })).toEqual([
      'DeliveryStatusLogging',
    ]);
  });
});

describe('AWS::SNS::Subscription provider', () => {
  it('subscribes with attributes, updates them in place, and unsubscribes', async () => {
    const topic = await topics.create(
      { logicalId: 'T', type: TOPIC, properties: { TopicName: 'subs' } },
      context,
    );
    const properties = {
      TopicArn: topic.physicalId,
      Protocol: 'sqs',
      Endpoint: queueArn('target'),
      RawMessageDelivery: 'true',
      FilterPolicy: { kind: ['a'] },
    };
    const created = await subscriptions.create({ logicalId: 'S', type: SUBSCRIPTION, properties }, context);
    expect(created.physicalId).toMatch(new RegExp(`^${topic.physicalId}:`));
    const next = {
      ...properties,
      RawMessageDelivery: false,
      FilterPolicy: undefined,
      FilterPolicyScope: 'MessageBody',
    };
    delete next.FilterPolicy;
    expect(
      subscriptions.canUpdateInPlace(SUBSCRIPTION, [
        'RawMessageDelivery',
        'FilterPolicy',
        'FilterPolicyScope',
      ]),
    ).toBe(true);
    await subscriptions.update(
      {
        logicalId: 'S',
        type: SUBSCRIPTION,
        physicalId: created.physicalId,
        properties: next,
        previousProperties: properties,
      },
      context,
    );
    const { Attributes } = await sns.send(
      new GetSubscriptionAttributesCommand({ SubscriptionArn: created.physicalId }),
    );
    expect(Attributes).toMatchObject({ RawMessageDelivery: 'false', FilterPolicyScope: 'MessageBody' });
    expect(Attributes!.FilterPolicy).toBeUndefined();
    const request = { logicalId: 'S', type: SUBSCRIPTION, physicalId: created.physicalId, properties: next };
    expect((await subscriptions.read(request, context))!.properties).toEqual({
      ...next,
      RawMessageDelivery: false,
    });
    await subscriptions.delete(request, context);
    expect(await subscriptions.read(request, context)).toBeUndefined();
    await subscriptions.delete(request, context);
  });

  it('makes Protocol, Endpoint, TopicArn and Region create-only', () => {
    for (const property of ['Protocol', 'Endpoint', 'TopicArn', 'Region']) {
      expect(subscriptions.canUpdateInPlace(SUBSCRIPTION, [property])).toBe(false);
    }
  });
});

describe('AWS::SNS::TopicPolicy provider', () => {
  it('sets the policy on each topic, moves it, and restores the default on delete', async () => {
    const a = await topics.create({ logicalId: 'A', type: TOPIC, properties: {} }, context);
    const b = await topics.create({ logicalId: 'B', type: TOPIC, properties: {} }, context);
    const document = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: '*', Action: 'sns:Publish', Resource: '*' }],
    };
    const properties = { PolicyDocument: document, Topics: [a.physicalId, b.physicalId] };
    const type = 'AWS::SNS::TopicPolicy';
    const created = await policies.create({ logicalId: 'P', type, properties }, context);
    expect(JSON.parse((await topicAttributes(b.physicalId)).Policy!)).toEqual(document);
    const request = { logicalId: 'P', type, physicalId: created.physicalId, properties };
    expect((await policies.read(request, context))!.properties).toEqual(properties);
    const moved = { PolicyDocument: document, Topics: [b.physicalId] };
    await policies.update({ ...request, properties: moved, previousProperties: properties }, context);
    expect((await topicAttributes(a.physicalId)).Policy).toBe(defaultTopicPolicy(a.physicalId, ACCOUNT));
    await policies.delete({ ...request, properties: moved }, context);
    expect(await policies.read({ ...request, properties: moved }, context)).toBeUndefined();
  });
});

describe('Ref and GetAtt, row by row', () => {
  it('Topic: Ref and TopicArn are the ARN, TopicName its name', async () => {
    const created = await topics.create(
      { logicalId: 'R', type: TOPIC, properties: { TopicName: 'refs' } },
      context,
    );
    expect(created.physicalId).toBe(arnOf('refs'));
    expect(created.ref).toBeUndefined();
    expect(created.attributes.TopicArn).toBe(arnOf('refs'));
    expect(created.attributes.TopicName).toBe('refs');
  });

  it('Subscription: Ref and Arn are the subscription ARN', async () => {
    const created = await subscriptions.create(
      {
        logicalId: 'S',
        type: SUBSCRIPTION,
        properties: { TopicArn: arnOf('refs'), Protocol: 'sqs', Endpoint: queueArn('r') },
      },
      context,
    );
    expect(created.ref).toBeUndefined();
    expect(created.attributes).toEqual({ Arn: created.physicalId });
  });

  it('TopicPolicy: Ref and Id are the generated id', async () => {
    const created = await policies.create(
      {
        logicalId: 'Policy',
        type: 'AWS::SNS::TopicPolicy',
        properties: { Topics: [arnOf('refs')], PolicyDocument: {} },
      },
      context,
    );
    expect(created.physicalId).toMatch(/^Notify-Policy-[A-Z0-9]{12}$/);
    expect(created.attributes).toEqual({ Id: created.physicalId });
  });
});

describe('through the engine', () => {
  it('replaces a topic on a TopicName change: the subscription follows, the old topic is deleted', async () => {
    const engine = await engineWith(registerSns, 'sns-provider-state');
    const template = (name: string) => ({
      Resources: {
        Topic: { Type: TOPIC, Properties: { TopicName: name } },
        Sub: {
          Type: SUBSCRIPTION,
          Properties: { TopicArn: { Ref: 'Topic' }, Protocol: 'sqs', Endpoint: queueArn('q') },
        },
      },
      Outputs: { Name: { Value: { 'Fn::GetAtt': ['Topic', 'TopicName'] } } },
    });
    const stack = (body: Record<string, unknown>) => ({
      stateName: 'SnsStack',
      stackName: 'SnsStack',
      region: 'us-east-1',
      accountId: ACCOUNT,
      template: body,
    });
    expect((await engine.deploy(stack(template('first')), { concurrency: 2 })).outputs.Name!.value).toBe(
      'first',
    );
    const result = await engine.deploy(stack(template('second')), { concurrency: 2 });
    expect(result.outputs.Name!.value).toBe('second');
    expect(await endpoints(arnOf('second'))).toEqual([queueArn('q')]);
    const inventory = JSON.stringify(await (await fetch(`${sandbox.url}/_sandbox/inventory`)).json());
    expect(inventory).toContain(arnOf('second'));
    expect(inventory).not.toContain(`${arnOf('first')}"`);
  });
});
