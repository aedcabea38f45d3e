import {
  CreateEventSourceMappingCommand,
  GetEventSourceMappingCommand,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, drainJson } from './helpers.js';
import { ACCOUNT, clientConfig, createFunction, lambdaClient } from './lambda-runtime-helpers.js';

// A queue triggering a function through an event source mapping, as Lambda's poller does:
// batches, filter criteria, partial batch failures, and the queue's redrive to its DLQ once a
// failing message was received maxReceiveCount times (visibility on the sandbox clock).
let sandbox: Sandbox;
let sqs: SQSClient;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  sqs = new SQSClient(clientConfig(sandbox));
  lambda = lambdaClient(sandbox);
  await admin(sandbox, 'PUT', 'clock', { set: '2030-01-01T00:00:00Z' });
});
afterAll(async () => {
  sqs.destroy();
  lambda.destroy();
  await sandbox.stop();
});

const arn = (name: string) => `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`;

async function queue(name: string, attributes: Record<string, string> = {}): Promise<string> {
  return (await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl!;
}

const drain = (url: string, count: number, deadlineMs?: number) => drainJson(sqs, url, count, deadlineMs);

const HANDLER = `
const { SQSClient, SendMessageCommand } = require('@aws-sdk/client-sqs');
const sqs = new SQSClient({});
exports.handler = async (event) => {
  const batchItemFailures = [];
  for (const record of event.Records) {
    const body = JSON.parse(record.body);
    if (body.fail) batchItemFailures.push({ itemIdentifier: record.messageId });
    else await sqs.send(new SendMessageCommand({
      QueueUrl: process.env.DONE_URL,
      MessageBody: JSON.stringify({ n: body.n, receiveCount: record.attributes.ApproximateReceiveCount, source: record.eventSourceARN }),
    }));
  }
  return { batchItemFailures };
};`;

describe('an SQS event source mapping', () => {
  it('invokes with batches, drops filtered messages, keeps reported failures until the DLQ takes them', async () => {
    const dlqUrl = await queue('work-dlq');
    const workUrl = await queue('work', {
      VisibilityTimeout: '5',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn('work-dlq'), maxReceiveCount: 2 }),
    });
    const doneUrl = await queue('work-done');
    await createFunction(lambda, {
      name: 'worker',
      files: { 'index.js': HANDLER },
      environment: { DONE_URL: doneUrl },
    });
    const { UUID } = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'worker',
        EventSourceArn: arn('work'),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ body: { kind: ['order'] } }) }] },
      }),
    );
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: workUrl,
        Entries: [
          { Id: '1', MessageBody: JSON.stringify({ kind: 'order', n: 1 }) },
          { Id: '2', MessageBody: JSON.stringify({ kind: 'order', n: 2, fail: true }) },
          { Id: '3', MessageBody: JSON.stringify({ kind: 'ping', n: 3 }) },
        ],
      }),
    );

    expect(await drain(doneUrl, 1)).toEqual([{ n: 1, receiveCount: '1', source: arn('work') }]);
    const attributes = async () =>
      (
        await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: workUrl,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        )
      ).Attributes;
    // The filtered message is gone; the failed one waits out its visibility timeout. The
    // processed one is deleted once its invocation has returned (after it wrote to the done queue).
    await expect
      .poll(attributes, { timeout: 20_000 })
      .toEqual({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '1' });

    // Visible again after 5 s of sandbox time: received a second time, failing again; after
    // the next 5 s SQS moves it to the dead-letter queue instead of a third receive.
    await admin(sandbox, 'PUT', 'clock', { advance: '6s' });
    await waitFor(
      async () =>
        (await attributes())?.ApproximateNumberOfMessagesNotVisible === '1' &&
        (await receiveCountOnDlq(dlqUrl)) === 0,
    );
    await admin(sandbox, 'PUT', 'clock', { advance: '6s' });
    const dead = await drain(dlqUrl, 1);
    expect(dead).toEqual([{ kind: 'order', n: 2, fail: true }]);
    expect(await drain(doneUrl, 1, 500)).toEqual([]);
    const mapping = await lambda.send(new GetEventSourceMappingCommand({ UUID }));
    expect(mapping).toMatchObject({
      State: 'Enabled',
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

async function receiveCountOnDlq(url: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages);
}

async function waitFor(test: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await test())) {
    if (Date.now() > until) throw new Error('timed out waiting for the poller');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
