import {
  EventBridgeClient,
  PutEventsCommand,
  PutRuleCommand,
  PutTargetsCommand,
  TestEventPatternCommand,
} from '@aws-sdk/client-eventbridge';
import {
  CreateBucketCommand,
  PutBucketNotificationConfigurationCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure, s3Client } from './helpers.js';

// EventBridge on the sandbox: PutEvents matched against rules and sent to their targets,
// scheduled rules on the sandbox's clock, S3's events on the default bus.
const account = '123456789012';
const credentials = { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' };
let sandbox: Sandbox;
let events: EventBridgeClient;
let sqs: SQSClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: account });
  const config = { endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 };
  events = new EventBridgeClient(config);
  sqs = new SQSClient(config);
});
afterAll(async () => {
  events.destroy();
  sqs.destroy();
  await sandbox.stop();
});

const ruleArn = (name: string) => `arn:aws:events:us-east-1:${account}:rule/${name}`;

/** A queue EventBridge may send to for the named rules (none: no policy at all). */
async function queue(name: string, rules: string[] = []): Promise<{ url: string; arn: string }> {
  const arn = `arn:aws:sqs:us-east-1:${account}:${name}`;
  const policy = {
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Resource: arn,
        Condition: { ArnEquals: { 'aws:SourceArn': rules.map(ruleArn) } },
      },
    ],
  };
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      ...(rules.length > 0 ? { Attributes: { Policy: JSON.stringify(policy) } } : {}),
    }),
  );
  return { url: QueueUrl!, arn };
}

/** What the queue holds now, deleted as read. */
async function messages(url: string) {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }),
  );
  for (const { ReceiptHandle } of Messages) {
    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle }));
  }
  return Messages;
}

describe('PutEvents', () => {
  it("sends a matching event to a rule's queue target, transformed by its InputTransformer", async () => {
    const whole = await queue('orders-all', ['orders-big']);
    const shaped = await queue('orders-shaped', ['orders-big']);
    await events.send(
      new PutRuleCommand({
        Name: 'orders-big',
        EventPattern: JSON.stringify({ source: ['shop'], detail: { total: [{ numeric: ['>=', 100] }] } }),
      }),
    );
    await events.send(
      new PutTargetsCommand({
        Rule: 'orders-big',
        Targets: [
          { Id: 'whole', Arn: whole.arn },
          {
            Id: 'shaped',
            Arn: shaped.arn,
            InputTransformer: {
              InputPathsMap: { id: '$.detail.id' },
              InputTemplate: '{"order": <id>, "rule": "<aws.events.rule-name>"}',
            },
          },
        ],
      }),
    );
    const put = await events.send(
      new PutEventsCommand({
        Entries: [
          { Source: 'shop', DetailType: 'Order', Detail: JSON.stringify({ id: 'o-1', total: 250 }) },
          { Source: 'shop', DetailType: 'Order', Detail: JSON.stringify({ id: 'o-2', total: 5 }) },
          { Source: 'shop', DetailType: 'Order', Detail: 'not json' },
        ],
      }),
    );
    expect(put.FailedEntryCount).toBe(1);
    expect(put.Entries![2]).toEqual({ ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' });

    const [event, ...others] = (await messages(whole.url)).map((m) => JSON.parse(m.Body!));
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      version: '0',
      id: put.Entries![0]!.EventId,
      source: 'shop',
      'detail-type': 'Order',
      account,
      region: 'us-east-1',
      detail: { id: 'o-1', total: 250 },
    });
    expect((await messages(shaped.url)).map((m) => JSON.parse(m.Body!))).toEqual([
      { order: 'o-1', rule: 'orders-big' },
    ]);
  });

  it("sends what the target's queue policy refuses to its dead-letter queue, with EventBridge's attributes", async () => {
    const closed = await queue('audit-closed');
    const dlq = await queue('audit-dlq', ['audit']);
    await events.send(
      new PutRuleCommand({ Name: 'audit', EventPattern: JSON.stringify({ source: ['bank'] }) }),
    );
    await events.send(
      new PutTargetsCommand({
        Rule: 'audit',
        Targets: [{ Id: 'closed', Arn: closed.arn, DeadLetterConfig: { Arn: dlq.arn } }],
      }),
    );
    await events.send(
      new PutEventsCommand({ Entries: [{ Source: 'bank', DetailType: 'T', Detail: '{"n":1}' }] }),
    );

    expect(await messages(closed.url)).toEqual([]);
    const [dead] = await messages(dlq.url);
    expect(JSON.parse(dead!.Body!).detail).toEqual({ n: 1 });
    const attributes = Object.fromEntries(
      Object.entries(dead!.MessageAttributes!).map(([name, value]) => [name, value.StringValue]),
    );
    expect(attributes).toMatchObject({
      RULE_ARN: ruleArn('audit'),
      TARGET_ARN: closed.arn,
      ERROR_CODE: 'AccessDenied',
      EXHAUSTED_RETRY_CONDITION: 'NonRetryable',
    });
    const { json } = await admin(sandbox, 'GET', 'calls');
    expect(json.deliveries).toContainEqual(
      expect.objectContaining({
        from: 'events',
        source: ruleArn('audit'),
        target: closed.arn,
        outcome: 'denied',
      }),
    );
  });

  it('refuses a rule whose pattern is not valid, naming why', async () => {
    const refused = await failure(
      events.send(new PutRuleCommand({ Name: 'bad', EventPattern: JSON.stringify({ source: 'shop' }) })),
    );
    expect(refused.name).toBe('InvalidEventPatternException');
    expect(refused.error.message).toContain('Match value must be');
    const tested = await events.send(
      new TestEventPatternCommand({
        EventPattern: JSON.stringify({ detail: { n: [{ numeric: ['>', 1] }] } }),
        Event: JSON.stringify({ id: '1', source: 's', detail: { n: 2 } }),
      }),
    );
    expect(tested.Result).toBe(true);
  });
});

describe('scheduled rules on the sandbox clock', () => {
  it('fire a Scheduled Event at each time the clock passes, and no more', async () => {
    await admin(sandbox, 'PUT', 'clock', { set: '2030-01-01T00:00:00Z' });
    const nightly = await queue('nightly', ['nightly']);
    await events.send(new PutRuleCommand({ Name: 'nightly', ScheduleExpression: 'cron(0 2 * * ? *)' }));
    await events.send(new PutTargetsCommand({ Rule: 'nightly', Targets: [{ Id: 'q', Arn: nightly.arn }] }));

    const advanced = await admin(sandbox, 'PUT', 'clock', { advance: 'PT49H' });
    expect(advanced.json).toMatchObject({ now: '2030-01-03T01:00:00.000Z', mode: 'frozen' });
    const fired = (await messages(nightly.url)).map((m) => JSON.parse(m.Body!));
    expect(fired.map((event) => event.time)).toEqual(['2030-01-01T02:00:00Z', '2030-01-02T02:00:00Z']);
    expect(fired[0]).toMatchObject({
      source: 'aws.events',
      'detail-type': 'Scheduled Event',
      resources: [ruleArn('nightly')],
      detail: {},
    });
    await admin(sandbox, 'PUT', 'clock', { advance: '30m' });
    expect(await messages(nightly.url)).toEqual([]);
    await admin(sandbox, 'PUT', 'clock', { mode: 'wall' });
  });
});

describe("S3's events on the default bus", () => {
  it('put Object Created there when the bucket has EventBridge notifications on', async () => {
    const s3 = s3Client(sandbox);
    const uploads = await queue('uploads-events', ['uploads-created']);
    await events.send(
      new PutRuleCommand({
        Name: 'uploads-created',
        EventPattern: JSON.stringify({
          source: ['aws.s3'],
          'detail-type': ['Object Created'],
          detail: { bucket: { name: ['event-uploads'] }, object: { key: [{ suffix: '.csv' }] } },
        }),
      }),
    );
    await events.send(
      new PutTargetsCommand({ Rule: 'uploads-created', Targets: [{ Id: 'q', Arn: uploads.arn }] }),
    );
    await s3.send(new CreateBucketCommand({ Bucket: 'event-uploads' }));
    await s3.send(
      new PutBucketNotificationConfigurationCommand({
        Bucket: 'event-uploads',
        NotificationConfiguration: { EventBridgeConfiguration: {} },
      }),
    );
    await s3.send(new PutObjectCommand({ Bucket: 'event-uploads', Key: 'in/a.csv', Body: 'a,b' }));
    await s3.send(new PutObjectCommand({ Bucket: 'event-uploads', Key: 'in/a.txt', Body: 'a' }));

    const received = (await messages(uploads.url)).map((m) => JSON.parse(m.Body!));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      source: 'aws.s3',
      'detail-type': 'Object Created',
      resources: ['arn:aws:s3:::event-uploads'],
      detail: {
        bucket: { name: 'event-uploads' },
        object: { key: 'in/a.csv', size: 3 },
        reason: 'PutObject',
      },
    });
  });
});
