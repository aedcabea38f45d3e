import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetTopicAttributesCommand, SetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ParentPolicyProvider } from '../../src/providers/parent-policy.js';
import {
  ResourceMadeError,
  type DeleteRequest,
  type MadeDelete,
  type ProviderContext,
} from '../../src/providers/provider.js';
import { defaultTopicPolicy } from '../../src/providers/sns/common.js';
import { TopicPolicyProvider } from '../../src/providers/sns/topic-policy.js';
import { TopicProvider } from '../../src/providers/sns/topic.js';
import { QueuePolicyProvider } from '../../src/providers/sqs/queue-policy.js';
import { QueueProvider } from '../../src/providers/sqs/queue.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { admin } from '../sandbox/helpers.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { ACCOUNT, providerContext, startProviderSandbox } from './sqs-helpers.js';

let sandbox: Sandbox;
let context: ProviderContext;
let sqs: SQSClient;
let sns: SNSClient;
const queues = new QueueProvider();
const topics = new TopicProvider();
const queuePolicies = new QueuePolicyProvider();
const topicPolicies = new TopicPolicyProvider();
const QUEUE_POLICY = 'AWS::SQS::QueuePolicy';
const TOPIC_POLICY = 'AWS::SNS::TopicPolicy';

beforeAll(async () => {
  sandbox = await startProviderSandbox();
  context = providerContext('Made');
  sqs = await context.clients.client(SQSClient, 'us-east-1');
  sns = await context.clients.client(SNSClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox));
afterAll(async () => {
  await sandbox.stop();
});

const document = (action: string, principal: unknown = '*') => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: principal, Action: action, Resource: '*' }],
});

let counter = 0;
async function newQueue(): Promise<string> {
  counter += 1;
  return (await queues.create({ logicalId: `Q${counter}`, type: 'AWS::SQS::Queue', properties: {} }, context))
    .physicalId;
}
async function newTopic(): Promise<string> {
  counter += 1;
  return (await topics.create({ logicalId: `T${counter}`, type: 'AWS::SNS::Topic', properties: {} }, context))
    .physicalId;
}

const queuePolicyOf = async (url: string) =>
  (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['Policy'] }))).Attributes
    ?.Policy;
const setQueuePolicy = (url: string, policy: unknown) =>
  sqs.send(
    new SetQueueAttributesCommand({
      QueueUrl: url,
      Attributes: { Policy: typeof policy === 'string' ? policy : JSON.stringify(policy) },
    }),
  );
const topicPolicyOf = async (arn: string) =>
  (await sns.send(new GetTopicAttributesCommand({ TopicArn: arn }))).Attributes?.Policy;
const setTopicPolicy = (arn: string, policy: unknown) =>
  sns.send(
    new SetTopicAttributesCommand({
      TopicArn: arn,
      AttributeName: 'Policy',
      AttributeValue: typeof policy === 'string' ? policy : JSON.stringify(policy),
    }),
  );

function request(type: string, properties: Record<string, unknown>): DeleteRequest {
  return { logicalId: 'P', type, physicalId: 'Made-P-ABCDEFGHIJKL', properties };
}

/** What deleteMade in the replay passes: here, the journaled properties as they are. */
function made(properties: Record<string, unknown>, extra: Partial<MadeDelete> = {}): MadeDelete {
  return { attempted: async () => ({ properties }), ...extra };
}

describe('a QueuePolicy or TopicPolicy create that fails after writing some targets', () => {
  it('fails plainly when it wrote nothing', async () => {
    const a = await newQueue();
    const properties = { PolicyDocument: document('sqs:SendMessage'), Queues: [a] };
    await failNext(sandbox, 'sqs', 'SetQueueAttributes');
    const error = await queuePolicies
      .create({ logicalId: 'P', type: QUEUE_POLICY, properties }, context)
      .catch((rejection: unknown) => rejection);
    expect(error).not.toBeInstanceOf(ResourceMadeError);
    expect(await queuePolicyOf(a)).toBeUndefined();
  });

  it('is reported made, naming exactly the queues written; deleting it clears them', async () => {
    const [a, b] = [await newQueue(), await newQueue()];
    const properties = { PolicyDocument: document('sqs:SendMessage'), Queues: [a, b] };
    await failNext(sandbox, 'sqs', 'SetQueueAttributes', { nth: 2 });
    const error = await madeError(
      queuePolicies.create({ logicalId: 'P', type: QUEUE_POLICY, properties }, context),
    );
    expect(error.made.creationIdentity).toEqual({ writtenTo: JSON.stringify([a]) });
    expect(await queuePolicyOf(a)).toBeDefined();
    expect(await queuePolicyOf(b)).toBeUndefined();

    const report = await queuePolicies.deleteMade(
      request(QUEUE_POLICY, properties),
      made(properties, { creationIdentity: error.made.creationIdentity! }),
      context,
    );
    expect(report.left).toEqual([]);
    expect(await queuePolicyOf(a)).toBeUndefined();
  });

  it("a retry of the same create keeps naming what an earlier attempt wrote, under that attempt's id", async () => {
    const [a, b] = [await newQueue(), await newQueue()];
    const properties = { PolicyDocument: document('sqs:SendMessage'), Queues: [a, b] };
    const create = () =>
      queuePolicies.create(
        { logicalId: 'P', type: QUEUE_POLICY, properties, idempotencyToken: 'token-1' },
        context,
      );
    await failNext(sandbox, 'sqs', 'SetQueueAttributes', { nth: 2 });
    const first = await madeError(create());
    await failNext(sandbox, 'sqs', 'SetQueueAttributes');
    const second = await madeError(create());
    expect(second.made).toEqual(first.made);
    const created = await create();
    expect(created.physicalId).toBe(first.made.physicalId);
  });

  it('counts a write that got no answer from the service as written', async () => {
    const written: string[] = [];
    const provider = new ParentPolicyProvider({
      type: QUEUE_POLICY,
      parentsProperty: 'Queues',
      attributesOf: (id) => ({ Id: id }),
      write: async (parent) => {
        if (parent === 'q2') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        written.push(parent);
      },
      remove: async () => undefined,
      read: async () => undefined,
    });
    const error = await provider
      .create({ logicalId: 'P', type: QUEUE_POLICY, properties: { Queues: ['q1', 'q2', 'q3'] } }, context)
      .catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(ResourceMadeError);
    expect((error as ResourceMadeError).made.creationIdentity).toEqual({ writtenTo: '["q1","q2"]' });
  });
});

describe('AWS::SQS::QueuePolicy: deleting what a failed create made', () => {
  it('clears a queue still holding the attempted policy or none, leaves a replaced one', async () => {
    const [held, none, replaced, gone] = [
      await newQueue(),
      await newQueue(),
      await newQueue(),
      await newQueue(),
    ];
    const attempted = document('sqs:SendMessage');
    await setQueuePolicy(held, attempted);
    await setQueuePolicy(replaced, document('sqs:ReceiveMessage'));
    await queues.delete({ ...request('AWS::SQS::Queue', {}), physicalId: gone }, context);
    const properties = { PolicyDocument: attempted, Queues: [held, none, replaced, gone] };
    const report = await queuePolicies.deleteMade(
      request(QUEUE_POLICY, properties),
      made(properties),
      context,
    );
    expect(report.left).toEqual([{ target: replaced, reason: 'its policy was replaced by a different one' }]);
    expect(await queuePolicyOf(held)).toBeUndefined();
    expect(await queuePolicyOf(none)).toBeUndefined();
    expect(JSON.parse((await queuePolicyOf(replaced))!)).toEqual(document('sqs:ReceiveMessage'));
  });

  it('reads a bare account-id principal as the root ARN SQS stores it as', async () => {
    const queue = await newQueue();
    const attempted = document('sqs:SendMessage', { AWS: ACCOUNT });
    await setQueuePolicy(queue, attempted);
    expect(await queuePolicyOf(queue)).toContain(`arn:aws:iam::${ACCOUNT}:root`);
    const properties = { PolicyDocument: attempted, Queues: [queue] };
    const report = await queuePolicies.deleteMade(
      request(QUEUE_POLICY, properties),
      made(properties),
      context,
    );
    expect(report.left).toEqual([]);
    expect(await queuePolicyOf(queue)).toBeUndefined();
  });

  it('uses the written queues the creation identity records over the attempted Queues', async () => {
    const [written, other] = [await newQueue(), await newQueue()];
    const attempted = document('sqs:SendMessage');
    await setQueuePolicy(written, attempted);
    // The same document, written by something else: not ours to clear.
    await setQueuePolicy(other, attempted);
    const properties = { PolicyDocument: attempted, Queues: [written, other] };
    const creationIdentity = { writtenTo: JSON.stringify([written]) };
    await queuePolicies.deleteMade(
      request(QUEUE_POLICY, properties),
      made(properties, { creationIdentity }),
      context,
    );
    expect(await queuePolicyOf(written)).toBeUndefined();
    expect(await queuePolicyOf(other)).toBeDefined();
  });

  it('with an unusable document clears nothing and lists every queue', async () => {
    const [a, b] = [await newQueue(), await newQueue()];
    const attempted = document('sqs:SendMessage');
    await setQueuePolicy(a, attempted);
    const properties = { PolicyDocument: attempted, Queues: [a, b] };
    const unusable: MadeDelete = {
      attempted: async () => ({ unusable: 'the attempted document is masked' }),
    };
    const report = await queuePolicies.deleteMade(request(QUEUE_POLICY, properties), unusable, context);
    expect(report.left).toEqual([
      { target: a, reason: 'the attempted document is masked' },
      { target: b, reason: 'the attempted document is masked' },
    ]);
    expect(await queuePolicyOf(a)).toBeDefined();

    const missing = { Queues: [a] };
    const noDocument = await queuePolicies.deleteMade(request(QUEUE_POLICY, missing), made(missing), context);
    expect(noDocument.left).toEqual([{ target: a, reason: 'the journal holds no attempted document' }]);
    expect(await queuePolicyOf(a)).toBeDefined();
  });

  it('leaves a queue this deploy just wrote', async () => {
    const [mine, other] = [await newQueue(), await newQueue()];
    const attempted = document('sqs:SendMessage');
    await setQueuePolicy(mine, attempted);
    await setQueuePolicy(other, attempted);
    const properties = { PolicyDocument: attempted, Queues: [mine, other] };
    const report = await queuePolicies.deleteMade(
      request(QUEUE_POLICY, properties),
      made(properties, { appliedByThisDeploy: [{ PolicyDocument: attempted, Queues: [mine] }] }),
      context,
    );
    expect(report.left).toEqual([{ target: mine, reason: 'a policy this deploy wrote is on it now' }]);
    expect(await queuePolicyOf(mine)).toBeDefined();
    expect(await queuePolicyOf(other)).toBeUndefined();
  });

  it('fails when a policy cannot be read, and clears nothing it could not compare', async () => {
    const queue = await newQueue();
    const attempted = document('sqs:SendMessage');
    await setQueuePolicy(queue, attempted);
    const properties = { PolicyDocument: attempted, Queues: [queue] };
    await failNext(sandbox, 'sqs', 'GetQueueAttributes', { errorCode: 'AccessDenied' });
    await expect(
      queuePolicies.deleteMade(request(QUEUE_POLICY, properties), made(properties), context),
    ).rejects.toThrow(/injected GetQueueAttributes failure/);
    expect(await queuePolicyOf(queue)).toBeDefined();
  });
});

describe('AWS::SNS::TopicPolicy: deleting what a failed create made', () => {
  it('resets a topic still holding the attempted policy or none, leaves a replaced one', async () => {
    const [held, none, replaced] = [await newTopic(), await newTopic(), await newTopic()];
    const attempted = document('sns:Publish');
    await setTopicPolicy(held, attempted);
    await setTopicPolicy(none, '');
    await setTopicPolicy(replaced, document('sns:Subscribe'));
    const properties = { PolicyDocument: attempted, Topics: [held, none, replaced] };
    const report = await topicPolicies.deleteMade(
      request(TOPIC_POLICY, properties),
      made(properties),
      context,
    );
    expect(report.left).toEqual([{ target: replaced, reason: 'its policy was replaced by a different one' }]);
    expect(await topicPolicyOf(held)).toBe(defaultTopicPolicy(held, ACCOUNT));
    expect(await topicPolicyOf(none)).toBe(defaultTopicPolicy(none, ACCOUNT));
    expect(JSON.parse((await topicPolicyOf(replaced))!)).toEqual(document('sns:Subscribe'));
  });

  it('needs nothing for a topic already on its default policy', async () => {
    const topic = await newTopic();
    const properties = { PolicyDocument: document('sns:Publish'), Topics: [topic] };
    await admin(sandbox, 'DELETE', 'calls');
    const report = await topicPolicies.deleteMade(
      request(TOPIC_POLICY, properties),
      made(properties),
      context,
    );
    expect(report.left).toEqual([]);
    const { json } = await admin(sandbox, 'GET', 'calls');
    expect(json.calls['sns:SetTopicAttributes']).toBeUndefined();
    expect(await topicPolicyOf(topic)).toBe(defaultTopicPolicy(topic, ACCOUNT));
  });
});
