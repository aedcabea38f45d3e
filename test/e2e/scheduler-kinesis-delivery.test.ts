import { KinesisClient, PutRecordCommand } from '@aws-sdk/client-kinesis';
import { GetScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { Duration, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Stream } from 'aws-cdk-lib/aws-kinesis';
import { Code, Function, Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { KinesisEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnSchedule, CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A CDK app with an EventBridge Scheduler schedule (in its own group, in a time zone) that
// sends to a queue as its role, and a Kinesis stream feeding a function, deployed with cdkd
// to the sandbox; then the clock is moved past the schedule's time and a record is put on
// the stream, and their effects are read from the queue.
const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });
const STACK = 'SchedulerKinesis';
const ACCOUNT = '000000000000';

const HANDLER = `
const { SQSClient, SendMessageCommand } = require('@aws-sdk/client-sqs');
const sqs = new SQSClient({});
exports.handler = async (event) => {
  for (const r of event.Records) {
    const body = 'kinesis:' + Buffer.from(r.kinesis.data, 'base64').toString('utf8');
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.OUT_URL, MessageBody: body }));
  }
};`;

function app(): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, STACK);
    const out = new Queue(stack, 'Out', { queueName: 'e2e-sched-out' });
    const role = new Role(stack, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
    });
    out.grantSendMessages(role);
    const group = new CfnScheduleGroup(stack, 'Reports', { name: 'e2e-reports' });
    new CfnSchedule(stack, 'Daily', {
      name: 'e2e-daily',
      groupName: group.ref,
      scheduleExpression: 'cron(0 9 * * ? *)',
      scheduleExpressionTimezone: 'America/New_York',
      flexibleTimeWindow: { mode: 'OFF' },
      target: { arn: out.queueArn, roleArn: role.roleArn, input: '{"report":"daily"}' },
    });
    const stream = new Stream(stack, 'Clicks', { streamName: 'e2e-clicks', shardCount: 2 });
    const reader = new Function(stack, 'Reader', {
      functionName: 'e2e-clicks-reader',
      runtime: Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: Code.fromInline(HANDLER),
      timeout: Duration.seconds(30),
      environment: { OUT_URL: out.queueUrl },
    });
    out.grantSendMessages(reader);
    reader.addEventSource(
      new KinesisEventSource(stream, { startingPosition: StartingPosition.TRIM_HORIZON }),
    );
  });
}

const clients: { sqs?: SQSClient; scheduler?: SchedulerClient; kinesis?: KinesisClient } = {};
beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
  const deployed = await cli(['deploy', STACK, '-a', app()]);
  expect(deployed.code, deployed.stderr).toBe(0);
  const config = { endpoint: sandbox.current.url, region: 'us-east-1' };
  clients.sqs = new SQSClient(config);
  clients.scheduler = new SchedulerClient(config);
  clients.kinesis = new KinesisClient(config);
}, 300_000);
afterAll(() => {
  clients.sqs?.destroy();
  clients.scheduler?.destroy();
  clients.kinesis?.destroy();
});

async function messages(count: number, deadlineMs: number): Promise<string[]> {
  const { QueueUrl } = await clients.sqs!.send(new GetQueueUrlCommand({ QueueName: 'e2e-sched-out' }));
  const bodies: string[] = [];
  const end = Date.now() + deadlineMs;
  while (bodies.length < count && Date.now() < end) {
    const { Messages = [] } = await clients.sqs!.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }),
    );
    for (const m of Messages) {
      bodies.push(m.Body!);
      await clients.sqs!.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
    }
    if (Messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return bodies;
}

const clock = (body: unknown) =>
  fetch(`${sandbox.current.url}/_sandbox/clock`, { method: 'PUT', body: JSON.stringify(body) }).then((r) =>
    r.json(),
  );

describe('a deployed app with a schedule and a stream on the sandbox', () => {
  it('fires its schedule at 09:00 New York time, sending the input to the queue as its role', async () => {
    const got = await clients.scheduler!.send(
      new GetScheduleCommand({ Name: 'e2e-daily', GroupName: 'e2e-reports' }),
    );
    expect(got.Arn).toBe(`arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule/e2e-reports/e2e-daily`);
    // 09:00 in New York in January is 14:00 UTC.
    // A set jumps: what fell due on the way fires once, at the new time (the clock's rule).
    await clock({ set: '2030-01-15T13:59:00Z' });
    expect(await messages(1, 5_000)).toEqual(['{"report":"daily"}']);
    expect(await messages(1, 500)).toEqual([]);
    await clock({ advance: '2m' });
    expect(await messages(1, 10_000)).toEqual(['{"report":"daily"}']);
    await clock({ mode: 'wall' });
  });

  it('delivers a record put on its stream to the function the stream feeds', async () => {
    await clients.kinesis!.send(
      new PutRecordCommand({ StreamName: 'e2e-clicks', PartitionKey: 'user-1', Data: Buffer.from('home') }),
    );
    expect(await messages(1, 30_000)).toEqual(['kinesis:home']);
  });
});
