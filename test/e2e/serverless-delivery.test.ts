import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import {
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { Duration, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnSubscription, Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A serverless CDK app deployed with cdkd to the sandbox, then driven through its public
// surface only: a message on its queue writes a table row through the function the queue
// triggers; advancing the sandbox clock past 02:00 fires its nightly rule; a topic
// subscription whose queue has no policy is refused delivery, as on AWS.
const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });
const STACK = 'ServerlessDelivery';

const HANDLER = `
const { DynamoDBClient, PutItemCommand } = require('@aws-sdk/client-dynamodb');
const db = new DynamoDBClient({});
exports.handler = async (event) => {
  const rows = event.Records
    ? event.Records.map((r) => ({ id: JSON.parse(r.body).id, via: 'queue' }))
    : [{ id: 'nightly-' + event.time, via: event['detail-type'] }];
  for (const row of rows) {
    await db.send(new PutItemCommand({ TableName: process.env.TABLE, Item: { id: { S: row.id }, via: { S: row.via } } }));
  }
};`;

function app(): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, STACK);
    const table = new Table(stack, 'Rows', {
      tableName: 'e2e-rows',
      partitionKey: { name: 'id', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
    });
    const jobs = new Queue(stack, 'Jobs', { queueName: 'e2e-jobs', visibilityTimeout: Duration.seconds(30) });
    const worker = new Function(stack, 'Worker', {
      functionName: 'e2e-worker',
      runtime: Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: Code.fromInline(HANDLER),
      timeout: Duration.seconds(30),
      environment: { TABLE: table.tableName },
    });
    table.grantWriteData(worker);
    worker.addEventSource(new SqsEventSource(jobs, { batchSize: 5 }));
    new Rule(stack, 'Nightly', {
      schedule: Schedule.cron({ minute: '0', hour: '2' }),
      targets: [new LambdaFunction(worker)],
    });
    const alerts = new Topic(stack, 'Alerts', { topicName: 'e2e-alerts' });
    const unguarded = new Queue(stack, 'Unguarded', { queueName: 'e2e-unguarded' });
    // An L1 subscription: no queue policy lets the topic send, so SNS's delivery is refused.
    new CfnSubscription(stack, 'NoPolicy', {
      topicArn: alerts.topicArn,
      protocol: 'sqs',
      endpoint: unguarded.queueArn,
    });
  });
}

const clients: { sqs?: SQSClient; sns?: SNSClient; db?: DynamoDBClient } = {};
beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
  const deployed = await cli(['deploy', STACK, '-a', app()]);
  expect(deployed.code, deployed.stderr).toBe(0);
  const config = { endpoint: sandbox.current.url, region: 'us-east-1' };
  clients.sqs = new SQSClient(config);
  clients.sns = new SNSClient(config);
  clients.db = new DynamoDBClient(config);
}, 300_000);
afterAll(() => {
  clients.sqs?.destroy();
  clients.sns?.destroy();
  clients.db?.destroy();
});

async function row(id: string, deadlineMs = 30_000): Promise<string | undefined> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const { Item } = await clients.db!.send(
      new GetItemCommand({ TableName: 'e2e-rows', Key: { id: { S: id } } }),
    );
    if (Item || Date.now() > end) return Item?.via?.S;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const clock = (body: unknown) =>
  fetch(`${sandbox.current.url}/_sandbox/clock`, { method: 'PUT', body: JSON.stringify(body) }).then((r) =>
    r.json(),
  );

describe('a deployed serverless app on the sandbox', () => {
  it('writes a row for a message sent to its queue', async () => {
    const { QueueUrl } = await clients.sqs!.send(new GetQueueUrlCommand({ QueueName: 'e2e-jobs' }));
    await clients.sqs!.send(
      new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ id: 'job-1' }) }),
    );
    expect(await row('job-1')).toBe('queue');
  });

  it('runs its nightly rule when the clock passes 02:00', async () => {
    await clock({ set: '2030-01-01T01:59:00Z' });
    expect(await row('nightly-2030-01-01T02:00:00Z', 500)).toBeUndefined();
    await clock({ advance: '2m' });
    expect(await row('nightly-2030-01-01T02:00:00Z')).toBe('Scheduled Event');
    await clock({ mode: 'wall' });
  });

  it('refuses the topic delivery its queue policy does not allow, and says so in the call log', async () => {
    await clients.sns!.send(
      new PublishCommand({ TopicArn: 'arn:aws:sns:us-east-1:000000000000:e2e-alerts', Message: 'disk full' }),
    );
    const { QueueUrl } = await clients.sqs!.send(new GetQueueUrlCommand({ QueueName: 'e2e-unguarded' }));
    const { Messages } = await clients.sqs!.send(new ReceiveMessageCommand({ QueueUrl }));
    expect(Messages ?? []).toEqual([]);
    const { deliveries } = (await (await fetch(`${sandbox.current.url}/_sandbox/calls`)).json()) as {
      deliveries: Array<{ source: string; target: string; outcome: string }>;
    };
    expect(deliveries).toContainEqual(
      expect.objectContaining({
        source: 'arn:aws:sns:us-east-1:000000000000:e2e-alerts',
        target: 'arn:aws:sqs:us-east-1:000000000000:e2e-unguarded',
        outcome: 'denied',
      }),
    );
  });
});
