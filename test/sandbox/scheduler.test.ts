import { CreateResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { EventBridgeClient, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  ListScheduleGroupsCommand,
  ListSchedulesCommand,
  ListTagsForResourceCommand,
  SchedulerClient,
  TagResourceCommand,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { DescribeExecutionCommand, ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, drainJson, settle } from './helpers.js';
import {
  ACCOUNT,
  clientConfig,
  createFunction,
  createServiceRole,
  lambdaClient,
} from './lambda-runtime-helpers.js';

// EventBridge Scheduler through the AWS SDK: schedules and groups, and schedules firing on the
// sandbox's clock (moved through PUT /_sandbox/clock) to their targets as their role, with
// retries and a dead-letter queue.
let sandbox: Sandbox;
let scheduler: SchedulerClient;
let sqs: SQSClient;
const ROLE = `arn:aws:iam::${ACCOUNT}:role/scheduler-role`;
const UNTRUSTED = `arn:aws:iam::${ACCOUNT}:role/lambda-only`;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  scheduler = new SchedulerClient(clientConfig(sandbox));
  sqs = new SQSClient(clientConfig(sandbox));
  for (const [name, service] of [
    ['scheduler-role', 'scheduler.amazonaws.com'],
    ['lambda-only', 'lambda.amazonaws.com'],
    ['exec', 'lambda.amazonaws.com'],
  ] as const) {
    await createServiceRole(sandbox, name, service, [
      'sqs:SendMessage',
      'lambda:InvokeFunction',
      'events:PutEvents',
    ]);
  }
  await admin(sandbox, 'PUT', 'clock', { set: '2030-01-01T00:00:00Z' });
});
afterAll(async () => {
  scheduler.destroy();
  sqs.destroy();
  await sandbox.stop();
});

async function queue(name: string): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  return { url: QueueUrl!, arn: `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}` };
}

/** Bodies (and attributes) of the messages on the queue now, removed. */
async function received(
  url: string,
  wait = 0,
): Promise<Array<{ body: string; attributes: Record<string, string> }>> {
  const out: Array<{ body: string; attributes: Record<string, string> }> = [];
  const until = Date.now() + wait;
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }),
    );
    for (const m of Messages) {
      out.push({
        body: m.Body!,
        attributes: Object.fromEntries(
          Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue ?? '']),
        ),
      });
      await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }));
    }
    if (Messages.length === 0 && (out.length > 0 || Date.now() >= until)) return out;
    if (Messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const advance = (by: string) => admin(sandbox, 'PUT', 'clock', { advance: by });

const schedule = (
  input: Partial<CreateScheduleCommandInput> & { Name: string; Target: CreateScheduleCommandInput['Target'] },
) =>
  scheduler.send(
    new CreateScheduleCommand({
      ScheduleExpression: 'rate(5 minutes)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ...input,
    }),
  );

describe('EventBridge Scheduler API', () => {
  it('creates, reads, updates, lists and deletes schedules and groups with AWS errors', async () => {
    const { ScheduleGroups } = await scheduler.send(new ListScheduleGroupsCommand({}));
    expect(ScheduleGroups!.map((g) => g.Name)).toEqual(['default']);
    const { ScheduleGroupArn } = await scheduler.send(
      new CreateScheduleGroupCommand({ Name: 'team', Tags: [{ Key: 'owner', Value: 'ops' }] }),
    );
    expect(ScheduleGroupArn).toBe(`arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule-group/team`);
    await scheduler.send(
      new TagResourceCommand({ ResourceArn: ScheduleGroupArn, Tags: [{ Key: 'env', Value: 'test' }] }),
    );
    expect(
      (await scheduler.send(new ListTagsForResourceCommand({ ResourceArn: ScheduleGroupArn }))).Tags,
    ).toEqual([
      { Key: 'owner', Value: 'ops' },
      { Key: 'env', Value: 'test' },
    ]);
    expect((await scheduler.send(new GetScheduleGroupCommand({ Name: 'team' }))).State).toBe('ACTIVE');

    const target = { Arn: `arn:aws:sqs:us-east-1:${ACCOUNT}:nowhere`, RoleArn: ROLE };
    const created = await schedule({
      Name: 'nightly',
      GroupName: 'team',
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'Europe/Paris',
      State: 'DISABLED',
      Target: target,
    });
    expect(created.ScheduleArn).toBe(`arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule/team/nightly`);
    await expect(schedule({ Name: 'nightly', GroupName: 'team', Target: target })).rejects.toMatchObject({
      name: 'ConflictException',
    });
    await expect(
      schedule({ Name: 'bad', ScheduleExpression: 'rate(0 minutes)', Target: target }),
    ).rejects.toMatchObject({
      name: 'ValidationException',
    });
    await expect(
      schedule({ Name: 'bad', ScheduleExpressionTimezone: 'Mars/Olympus', Target: target }),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(schedule({ Name: 'lost', GroupName: 'nope', Target: target })).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    const got = await scheduler.send(new GetScheduleCommand({ Name: 'nightly', GroupName: 'team' }));
    expect(got).toMatchObject({
      Name: 'nightly',
      GroupName: 'team',
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'Europe/Paris',
      State: 'DISABLED',
      Target: target,
      FlexibleTimeWindow: { Mode: 'OFF' },
    });
    expect(got.CreationDate).toBeInstanceOf(Date);
    await expect(scheduler.send(new GetScheduleCommand({ Name: 'nightly' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      $metadata: { httpStatusCode: 404 },
    });
    await scheduler.send(
      new UpdateScheduleCommand({
        Name: 'nightly',
        GroupName: 'team',
        ScheduleExpression: 'rate(1 hour)',
        FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 15 },
        Target: target,
      }),
    );
    expect((await scheduler.send(new GetScheduleCommand({ Name: 'nightly', GroupName: 'team' }))).State).toBe(
      'ENABLED',
    );
    expect(
      (await scheduler.send(new ListSchedulesCommand({ GroupName: 'team' }))).Schedules!.map((s) => s.Name),
    ).toEqual(['nightly']);
    await expect(scheduler.send(new DeleteScheduleGroupCommand({ Name: 'default' }))).rejects.toMatchObject({
      name: 'ValidationException',
    });
    await scheduler.send(new DeleteScheduleGroupCommand({ Name: 'team' }));
    expect((await scheduler.send(new ListSchedulesCommand({}))).Schedules).toEqual([]);
  });
});

describe('EventBridge Scheduler firing on the sandbox clock', () => {
  it('a rate schedule sends its Input to SQS every period, and not once disabled or past its EndDate', async () => {
    const q = await queue('ticks');
    await schedule({
      Name: 'ticker',
      ScheduleExpression: 'rate(10 minutes)',
      EndDate: new Date('2030-01-01T00:35:00Z'),
      Target: { Arn: q.arn, RoleArn: ROLE, Input: '{"tick":true}' },
    });
    await advance('PT9M');
    expect(await received(q.url)).toEqual([]);
    await advance('PT1M');
    expect((await received(q.url, 2000)).map((m) => m.body)).toEqual(['{"tick":true}']);
    await advance('PT30M');
    // 00:20 and 00:30 fire; 00:40 is past the EndDate.
    expect(await received(q.url, 2000)).toHaveLength(2);
    await scheduler.send(new DeleteScheduleCommand({ Name: 'ticker' }));
  });

  it('a one-time at() schedule fires at its local time in its time zone and deletes itself after', async () => {
    const q = await queue('once');
    const now = Date.parse((await admin(sandbox, 'GET', 'clock')).json.now);
    const local = new Date(now + 2 * 3_600_000 + 9 * 3_600_000); // Tokyo is UTC+9
    const at = local.toISOString().slice(0, 19);
    await schedule({
      Name: 'one-shot',
      ScheduleExpression: `at(${at})`,
      ScheduleExpressionTimezone: 'Asia/Tokyo',
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: q.arn, RoleArn: ROLE, Input: 'once' },
    });
    await advance('PT1H59M');
    expect(await received(q.url)).toEqual([]);
    await advance('PT1M');
    expect((await received(q.url, 2000)).map((m) => m.body)).toEqual(['once']);
    await expect(scheduler.send(new GetScheduleCommand({ Name: 'one-shot' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('a role the scheduler cannot assume sends the input to the dead-letter queue', async () => {
    const q = await queue('unreached');
    const dlq = await queue('schedule-dlq');
    await schedule({
      Name: 'untrusted',
      ScheduleExpression: 'rate(1 minute)',
      Target: {
        Arn: q.arn,
        RoleArn: UNTRUSTED,
        Input: 'lost',
        DeadLetterConfig: { Arn: dlq.arn },
        RetryPolicy: { MaximumRetryAttempts: 0 },
      },
    });
    // The dead-letter queue is sent to as the schedule's role; this one can send (its own policy allows it).
    await advance('PT1M');
    const [dead] = await received(dlq.url, 3000);
    expect(dead).toMatchObject({
      body: 'lost',
      attributes: {
        ERROR_CODE: 'AccessDenied',
        SCHEDULE_ARN: `arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule/default/untrusted`,
        TARGET_ARN: q.arn,
      },
    });
    expect(await received(q.url)).toEqual([]);
    await scheduler.send(new DeleteScheduleCommand({ Name: 'untrusted' }));
  });

  it('delivers to a Lambda function and to an EventBridge bus with EventBridgeParameters', async () => {
    const q = await queue('from-targets');
    const lambda = lambdaClient(sandbox);
    await createFunction(lambda, {
      name: 'on-schedule',
      environment: { OUT_URL: q.url },
      files: {
        'index.js': `
const { SQSClient, SendMessageCommand } = require('@aws-sdk/client-sqs');
const sqs = new SQSClient({});
exports.handler = async (event) => {
  await sqs.send(new SendMessageCommand({ QueueUrl: process.env.OUT_URL, MessageBody: 'lambda:' + JSON.stringify(event) }));
};`,
      },
    });
    lambda.destroy();
    const events = new EventBridgeClient(clientConfig(sandbox));
    await events.send(
      new PutRuleCommand({
        Name: 'from-scheduler',
        EventPattern: JSON.stringify({ source: ['app.scheduler'] }),
      }),
    );
    await events.send(
      new PutTargetsCommand({
        Rule: 'from-scheduler',
        Targets: [{ Id: 'q', Arn: q.arn, InputPath: '$.detail' }],
      }),
    );
    events.destroy();
    // EventBridge sends to the queue for the rule: the queue's policy lets it.
    await sqs.send(
      new SetQueueAttributesCommand({
        QueueUrl: q.url,
        Attributes: {
          Policy: JSON.stringify({
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: 'events.amazonaws.com' },
                Action: 'sqs:SendMessage',
                Resource: q.arn,
              },
            ],
          }),
        },
      }),
    );
    await schedule({
      Name: 'to-lambda',
      ScheduleExpression: 'rate(1 minute)',
      Target: {
        Arn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:on-schedule`,
        RoleArn: ROLE,
        Input: '{"job":"report"}',
      },
    });
    await schedule({
      Name: 'to-bus',
      ScheduleExpression: 'rate(1 minute)',
      Target: {
        Arn: `arn:aws:events:us-east-1:${ACCOUNT}:event-bus/default`,
        RoleArn: ROLE,
        Input: '{"job":"export"}',
        EventBridgeParameters: { Source: 'app.scheduler', DetailType: 'Job due' },
      },
    });
    await advance('PT1M');
    await scheduler.send(new DeleteScheduleCommand({ Name: 'to-lambda' }));
    await scheduler.send(new DeleteScheduleCommand({ Name: 'to-bus' }));
    const bodies: string[] = [];
    const until = Date.now() + 15_000;
    while (bodies.length < 2 && Date.now() < until)
      bodies.push(...(await received(q.url, 500)).map((m) => m.body));
    expect(bodies.sort()).toEqual(['lambda:{"job":"report"}', '{"job":"export"}'].sort());
  });
});

describe('EventBridge Scheduler to Step Functions', () => {
  it('starts an execution of the target state machine with the Input, as the role its policy allows', async () => {
    const cc = cloudControlClient(sandbox);
    const { ProgressEvent } = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::StepFunctions::StateMachine',
        DesiredState: JSON.stringify({
          StateMachineName: 'nightly-job',
          RoleArn: ROLE,
          DefinitionString: JSON.stringify({
            StartAt: 'Done',
            States: { Done: { Type: 'Pass', End: true } },
          }),
        }),
      }),
    );
    const { event } = await settle(cc, ProgressEvent!);
    cc.destroy();
    const machineArn = event.Identifier!;
    await createServiceRole(sandbox, 'starter', 'scheduler.amazonaws.com', ['states:StartExecution']);
    await createServiceRole(sandbox, 'not-starter', 'scheduler.amazonaws.com', ['sqs:SendMessage']);
    for (const [name, role] of [
      ['start-job', 'starter'],
      ['cannot-start', 'not-starter'],
    ] as const) {
      await schedule({
        Name: name,
        ScheduleExpression: 'rate(1 minute)',
        Target: {
          Arn: machineArn,
          RoleArn: `arn:aws:iam::${ACCOUNT}:role/${role}`,
          Input: `{"from":"${name}"}`,
        },
      });
    }
    await advance('PT1M');
    await scheduler.send(new DeleteScheduleCommand({ Name: 'start-job' }));
    await scheduler.send(new DeleteScheduleCommand({ Name: 'cannot-start' }));
    const sfn = new SFNClient(clientConfig(sandbox));
    const { executions } = await sfn.send(new ListExecutionsCommand({ stateMachineArn: machineArn }));
    expect(executions).toHaveLength(1);
    const described = await sfn.send(
      new DescribeExecutionCommand({ executionArn: executions![0]!.executionArn }),
    );
    expect(JSON.parse(described.input!)).toEqual({ from: 'start-job' });
    sfn.destroy();
  });
});

describe('EventBridge Scheduler persistence', () => {
  it('re-arms a stored schedule when the sandbox starts again on the same data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'scheduler-'));
    try {
      const first = await startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
      await admin(first, 'PUT', 'clock', { set: '2030-01-01T00:00:00Z' });
      await createServiceRole(first, 'scheduler-role', 'scheduler.amazonaws.com', ['sqs:SendMessage']);
      const firstSqs = new SQSClient(clientConfig(first));
      await firstSqs.send(new CreateQueueCommand({ QueueName: 'after-restart' }));
      firstSqs.destroy();
      const client = new SchedulerClient(clientConfig(first));
      await client.send(
        new CreateScheduleCommand({
          Name: 'survivor',
          ScheduleExpression: 'rate(10 minutes)',
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: { Arn: `arn:aws:sqs:us-east-1:${ACCOUNT}:after-restart`, RoleArn: ROLE, Input: '"again"' },
        }),
      );
      client.destroy();
      await first.stop();

      const second = await startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
      await admin(second, 'PUT', 'clock', { set: '2030-01-01T00:05:00Z' });
      await admin(second, 'PUT', 'clock', { advance: 'PT5M' });
      const secondSqs = new SQSClient(clientConfig(second));
      const { QueueUrl } = await secondSqs.send(new CreateQueueCommand({ QueueName: 'after-restart' }));
      const bodies = (await drainJson(secondSqs, QueueUrl!, 1, 5_000)) as unknown[];
      expect(bodies).toEqual(['again']);
      secondSqs.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
