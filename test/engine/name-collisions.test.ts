import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  DescribeLogGroupsCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateEventBusCommand,
  DescribeRuleCommand,
  EventBridgeClient,
  PutRuleCommand,
} from '@aws-sdk/client-eventbridge';
import {
  CreateTopicCommand,
  GetTopicAttributesCommand,
  ListTopicsCommand,
  SNSClient,
} from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../helpers/error-chain.js';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/** Spec 002 "Name collisions", end to end on the sandbox with the real providers. */
const sandbox = useSandboxEngine('name-collision-state');

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

async function stateOf(stackName: string) {
  return (await sandbox.backend.store.read({ stackName, region: REGION }))?.document;
}

let sqs: SQSClient;
let sns: SNSClient;
let events: EventBridgeClient;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  sqs = await sandbox.clients.client(SQSClient, REGION);
  sns = await sandbox.clients.client(SNSClient, REGION);
  events = await sandbox.clients.client(EventBridgeClient, REGION);
  logs = await sandbox.clients.client(CloudWatchLogsClient, REGION);
});

describe('a plain create under an explicit name another resource holds (Creates that adopt a taken name)', () => {
  it('an SQS queue: NAMED_CREATE_COLLISION, nothing created, the holder untouched, ending on cdkd import', async () => {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: 'taken-queue', Attributes: { DelaySeconds: '7' } }),
    );
    const failure = await deployFails('QueueTaken', {
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'taken-queue', DelaySeconds: 1 } },
    });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(failure.message.endsWith(`cdkd import QueueTaken --resource Queue=${QueueUrl}`)).toBe(true);
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['DelaySeconds'] }),
    );
    expect(Attributes?.DelaySeconds).toBe('7');
    expect((await sqs.send(new ListQueuesCommand({}))).QueueUrls).toEqual([QueueUrl]);
    expect(Object.keys((await stateOf('QueueTaken'))?.resources ?? {})).toEqual([]);
  });

  it('an SNS topic: refused, the holder untouched and no second topic', async () => {
    const { TopicArn } = await sns.send(
      new CreateTopicCommand({ Name: 'taken-topic', Attributes: { DisplayName: 'theirs' } }),
    );
    const failure = await deployFails('TopicTaken', {
      Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'taken-topic', DisplayName: 'ours' } },
    });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(failure.message).toContain(TopicArn);
    const { Attributes } = await sns.send(new GetTopicAttributesCommand({ TopicArn }));
    expect(Attributes?.DisplayName).toBe('theirs');
    expect((await sns.send(new ListTopicsCommand({}))).Topics).toHaveLength(1);
  });

  it('an EventBridge rule: refused before PutRule could overwrite the holder', async () => {
    await events.send(new PutRuleCommand({ Name: 'taken-rule', ScheduleExpression: 'rate(1 hour)' }));
    const failure = await deployFails('RuleTaken', {
      Rule: {
        Type: 'AWS::Events::Rule',
        Properties: { Name: 'taken-rule', ScheduleExpression: 'rate(5 minutes)' },
      },
    });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    const rule = await events.send(new DescribeRuleCommand({ Name: 'taken-rule' }));
    expect(rule.ScheduleExpression).toBe('rate(1 hour)');
  });

  it('a log group something else created (/aws/lambda/<name>) is refused the same way', async () => {
    await logs.send(new CreateLogGroupCommand({ logGroupName: '/aws/lambda/fn' }));
    const failure = await deployFails('LogsTaken', {
      Logs: {
        Type: 'AWS::Logs::LogGroup',
        Properties: { LogGroupName: '/aws/lambda/fn', RetentionInDays: 7 },
      },
    });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    const { logGroups } = await logs.send(
      new DescribeLogGroupsCommand({ logGroupNamePrefix: '/aws/lambda/fn' }),
    );
    expect(logGroups?.map((group) => [group.logGroupName, group.retentionInDays])).toEqual([
      ['/aws/lambda/fn', undefined],
    ]);
  });

  it("names the stack's own holder under another logical id, and advises no import", async () => {
    await sandbox.deploy('Moved', {
      Old: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'moved-queue' } },
    });
    const failure = await deployFails('Moved', {
      Old: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'moved-queue' } },
      New: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'moved-queue' } },
    });
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(failure.message).toContain("this stack's own Old");
    expect(`${failure.message} ${failure.hint}`).not.toContain('cdkd import');
    expect(Object.keys((await stateOf('Moved'))!.resources)).toEqual(['Old']);
  });

  it('a Cloud Control type is looked up by a read of its primary identifier (an ECS cluster)', async () => {
    const cluster = { Cluster: { Type: 'AWS::ECS::Cluster', Properties: { ClusterName: 'shared-cluster' } } };
    await sandbox.deploy('ClusterOwner', cluster);
    const failure = await deployFails('ClusterTaker', cluster);
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(failure.message).toContain('cdkd import ClusterTaker --resource Cluster=shared-cluster');
    expect(Object.keys((await stateOf('ClusterTaker'))?.resources ?? {})).toEqual([]);
  });

  it('costs one read per explicitly named create and none for a generated name', async () => {
    const calls = async (method: string) =>
      (await fetch(`${sandbox.url}/_sandbox/calls`, { method })).json() as Promise<{
        calls: Record<string, { count: number }>;
      }>;
    await calls('DELETE');
    await sandbox.deploy('OneRead', {
      Named: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'one-read-queue' } },
      Generated: { Type: 'AWS::SQS::Queue' },
      Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'one-read-bucket' } },
    });
    const { calls: counted } = await calls('GET');
    expect(counted['sqs:GetQueueUrl']?.count).toBe(1);
    expect(counted['s3:HeadBucket']?.count).toBe(1);
  });

  it('is refused at planning, before any other resource of the deploy is touched (diff and --dry-run too)', async () => {
    await sqs.send(new CreateQueueCommand({ QueueName: 'taken-before' }));
    const resources = {
      First: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'made-first' } },
      Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'First', Properties: { QueueName: 'taken-before' } },
    };
    expect((await deployFails('Early', resources, { dryRun: true })).codes).toEqual([
      'NAMED_CREATE_COLLISION',
    ]);
    expect((await deployFails('Early', resources, { rollback: false })).codes).toEqual([
      'NAMED_CREATE_COLLISION',
    ]);
    const topics = (await sns.send(new ListTopicsCommand({}))).Topics ?? [];
    expect(topics.filter((topic) => topic.TopicArn?.endsWith(':made-first'))).toEqual([]);
    expect(await sandbox.backend.journals.read({ stackName: 'Early', region: REGION })).toBeUndefined();
  });

  it('a Cloud Control type identified by an ARN its name makes is looked up by that ARN (a state machine)', async () => {
    const machine = {
      Machine: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: {
          StateMachineName: 'shared-machine',
          RoleArn: 'arn:aws:iam::000000000000:role/sfn',
          DefinitionString: '{"StartAt":"Done","States":{"Done":{"Type":"Succeed"}}}',
        },
      },
    };
    await sandbox.deploy('MachineOwner', machine);
    const failure = await deployFails('MachineTaker', machine);
    expect(failure.codes).toContain('NAMED_CREATE_COLLISION');
    expect(failure.message).toContain(
      'cdkd import MachineTaker --resource Machine=arn:aws:states:us-east-1:000000000000:stateMachine:shared-machine',
    );
  });

  it('a lookup that cannot run is refused the same way, with nothing created', async () => {
    await sandbox.addFault({
      service: 'sqs',
      operation: 'GetQueueUrl',
      errorCode: 'AccessDenied',
      httpStatus: 403,
      message: 'not allowed',
    });
    const failure = await deployFails('Unreadable', {
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'unreadable-queue' } },
    });
    expect(failure.codes).toEqual(['NAMED_CREATE_COLLISION']);
    expect(failure.message).toContain('could not check whether its name is free');
    const urls = (await sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'unreadable' }))).QueueUrls ?? [];
    expect(urls).toEqual([]);
  });

  it('a generated name is not looked up: the create goes ahead', async () => {
    const result = await sandbox.deploy('Generated', { Queue: { Type: 'AWS::SQS::Queue' } });
    expect(result.changed).toBe(true);
  });
});

describe('a replacement whose new name is taken (NAMED_REPLACEMENT_COLLISION)', () => {
  it('a rename onto a name another resource holds is refused with nothing created or deleted', async () => {
    await sqs.send(new CreateQueueCommand({ QueueName: 'someone-elses' }));
    const stack = (queueName: string, displayName: string) => ({
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: queueName } },
      Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: displayName } },
    });
    await sandbox.deploy('Rename', stack('mine', 'v1'));
    const before = (await stateOf('Rename'))!.resources;
    for (const replace of [false, true]) {
      const failure = await deployFails('Rename', stack('someone-elses', 'v2'), { replace });
      // Refused at planning, before the topic's update or anything else is touched.
      expect(failure.codes).toEqual(['NAMED_REPLACEMENT_COLLISION']);
      // The holder is not the resource being replaced: --replace would refuse the same way.
      expect(failure.hint).not.toContain('--replace');
    }
    expect((await stateOf('Rename'))!.resources).toEqual(before);
    const { Attributes } = await sns.send(
      new GetTopicAttributesCommand({ TopicArn: before.Topic!.physicalId }),
    );
    expect(Attributes?.DisplayName).toBe('v1');
    const urls = (await sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'mine' }))).QueueUrls;
    expect(urls).toEqual([before.Queue!.physicalId]);
  });
});

describe('the other moves that look the new name up', () => {
  it('an EventBridge rule moved to another bus where a rule already holds its name', async () => {
    await events.send(new CreateEventBusCommand({ Name: 'other-bus' }));
    await events.send(
      new PutRuleCommand({
        Name: 'moving-rule',
        EventBusName: 'other-bus',
        EventPattern: '{"source":["theirs"]}',
      }),
    );
    const rule = (bus?: string) => ({
      Rule: {
        Type: 'AWS::Events::Rule',
        Properties: {
          Name: 'moving-rule',
          EventPattern: { source: ['ours'] },
          ...(bus ? { EventBusName: bus } : {}),
        },
      },
    });
    await sandbox.deploy('MoveBus', rule());
    const failure = await deployFails('MoveBus', rule('other-bus'), { replace: true });
    expect(failure.codes).toEqual(['NAMED_REPLACEMENT_COLLISION']);
    expect(failure.hint).not.toContain('--replace');
    const theirs = await events.send(
      new DescribeRuleCommand({ Name: 'moving-rule', EventBusName: 'other-bus' }),
    );
    expect(theirs.EventPattern).toBe('{"source":["theirs"]}');
  });

  it('a Type change onto a queue whose name another queue holds: the holder may be unrelated', async () => {
    await sqs.send(new CreateQueueCommand({ QueueName: 'retyped' }));
    await sandbox.deploy('Retype', {
      Thing: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'retyped' } },
    });
    const failure = await deployFails(
      'Retype',
      { Thing: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'retyped' } } },
      { replace: true },
    );
    expect(failure.codes).toEqual(['NAMED_REPLACEMENT_COLLISION']);
    expect(failure.message).toContain('may be an unrelated AWS::SQS::Queue, which --replace cannot free');
    expect((await stateOf('Retype'))!.resources.Thing?.type).toBe('AWS::SNS::Topic');
  });
});

describe('--replace on a replacement that keeps its name (How --replace proves the old resource holds the name)', () => {
  const group = (logGroupClass: string, extra: Record<string, unknown> = {}) => ({
    Logs: {
      Type: 'AWS::Logs::LogGroup',
      Properties: { LogGroupName: 'kept-name', LogGroupClass: logGroupClass },
      ...extra,
    },
  });
  const liveClass = async () =>
    (await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: 'kept-name' }))).logGroups?.map(
      (g) => g.logGroupClass,
    );

  beforeAll(async () => {
    await sandbox.deploy('KeptName', group('STANDARD'));
  });

  it('without --replace: refused, advising --replace, the old group untouched', async () => {
    const failure = await deployFails('KeptName', group('INFREQUENT_ACCESS'), {
      forceStatefulRecreation: true,
    });
    expect(failure.codes).toContain('NAMED_REPLACEMENT_COLLISION');
    expect(failure.hint).toContain('--replace');
    expect(await liveClass()).toEqual(['STANDARD']);
  });

  it('UpdateReplacePolicy: Retain fails regardless of --replace', async () => {
    const failure = await deployFails(
      'KeptName',
      group('INFREQUENT_ACCESS', { UpdateReplacePolicy: 'Retain' }),
      { forceStatefulRecreation: true, replace: true },
    );
    expect(failure.codes).toContain('NAMED_REPLACEMENT_COLLISION');
    expect(failure.hint).not.toContain('--replace');
    expect(await liveClass()).toEqual(['STANDARD']);
  });

  it('with --replace, a create that fails after the delete leaves a journal saying the old group is gone', async () => {
    await sandbox.addFault({
      service: 'logs',
      operation: 'CreateLogGroup',
      errorCode: 'InvalidParameterException',
      httpStatus: 400,
      message: 'injected',
    });
    await deployFails('KeptName', group('INFREQUENT_ACCESS'), {
      forceStatefulRecreation: true,
      replace: true,
      rollback: false,
    });
    const journal = await sandbox.backend.journals.read({ stackName: 'KeptName', region: REGION });
    const replaced = journal!.document.segments.flatMap((segment) => segment.operations).at(-1);
    expect(replaced).toMatchObject({
      logicalId: 'Logs',
      action: 'replace',
      status: 'failed',
      verdict: { order: 'delete-first', oldDeleted: true },
    });
    expect(await liveClass()).toEqual([]);
    expect((await stateOf('KeptName'))!.resources.Logs).toBeUndefined();
    // The rollback says what is gone and keeps nothing it cannot act on; the next deploy creates it.
    const rolledBack = await sandbox.rollback('KeptName', { revertFailed: true });
    expect(rolledBack.exitCode).toBe(2);
    expect(rolledBack.lines.join('\n')).toContain('deleted kept-name first and then failed');
    await sandbox.deploy('KeptName', group('STANDARD'));
    expect(await liveClass()).toEqual(['STANDARD']);
  });

  it('with --replace, a process stopped between the delete and the create leaves what cdkd rollback settles', async () => {
    await sandbox.addFault({
      service: 'logs',
      operation: 'CreateLogGroup',
      errorCode: 'InvalidParameterException',
      httpStatus: 400,
      message: 'injected',
    });
    await deployFails('KeptName', group('INFREQUENT_ACCESS'), {
      forceStatefulRecreation: true,
      replace: true,
      rollback: false,
    });
    // As a killed process leaves it: the replacement still in flight, its outcome never written.
    const ref = { stackName: 'KeptName', region: REGION };
    const read = (await sandbox.backend.journals.read(ref))!;
    const op = read.document.segments.flatMap((segment) => segment.operations).at(-1)!;
    Object.assign(op, { status: 'in-flight' });
    delete op.error;
    await sandbox.backend.journals.writer(ref)(read.document, read.etag);
    // The name is free, so the create made nothing: the rollback says the old group is gone.
    const rolledBack = await sandbox.rollback('KeptName', { revertFailed: true });
    expect(rolledBack.lines.join('\n')).not.toContain('could not be reconciled');
    expect(rolledBack.lines.join('\n')).toContain('deleted kept-name first and then failed');
    await sandbox.deploy('KeptName', group('STANDARD'));
    expect(await liveClass()).toEqual(['STANDARD']);
  });

  it('with --replace: the old group is deleted first and the new one created under the same name', async () => {
    await sandbox.deploy('KeptName', group('INFREQUENT_ACCESS'), {
      forceStatefulRecreation: true,
      replace: true,
      rollback: false,
    });
    expect(await liveClass()).toEqual(['INFREQUENT_ACCESS']);
    const state = (await stateOf('KeptName'))!;
    expect(state.resources.Logs?.properties.LogGroupClass).toBe('INFREQUENT_ACCESS');
    expect(state.pendingDeletes).toEqual([]);
  });
});
