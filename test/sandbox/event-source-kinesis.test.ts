import {
  CreateStreamCommand,
  KinesisClient,
  PutRecordCommand,
  PutRecordsCommand,
} from '@aws-sdk/client-kinesis';
import { CreateEventSourceMappingCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { drainJson } from './helpers.js';
import {
  ACCOUNT,
  clientConfig,
  createFunction,
  createServiceRole,
  lambdaClient,
} from './lambda-runtime-helpers.js';

// Kinesis as an event source: records put on a stream reach the function in Lambda's Kinesis
// event shape, and a failing batch is bisected, retried and sent to the on-failure destination.
let sandbox: Sandbox;
let kinesis: KinesisClient;
let sqs: SQSClient;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  kinesis = new KinesisClient(clientConfig(sandbox));
  sqs = new SQSClient(clientConfig(sandbox));
  lambda = lambdaClient(sandbox);
  await createServiceRole(sandbox, 'exec', 'lambda.amazonaws.com', ['sqs:SendMessage']);
});
afterAll(async () => {
  kinesis.destroy();
  sqs.destroy();
  lambda.destroy();
  await sandbox.stop();
});

const drain = (url: string, count: number) => drainJson(sqs, url, count);

/** A function that copies each record it gets to the queue, failing the batch when a record's data is "bad". */
async function recorder(name: string, queueUrl: string): Promise<void> {
  await createFunction(lambda, {
    name,
    environment: { OUT_URL: queueUrl },
    files: {
      'index.js': `
const { SQSClient, SendMessageCommand } = require('@aws-sdk/client-sqs');
const sqs = new SQSClient({});
exports.handler = async (event) => {
  const data = event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString('utf8'));
  if (data.includes('bad')) throw new Error('bad record');
  for (const r of event.Records) {
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.OUT_URL, MessageBody: JSON.stringify(r) }));
  }
};`,
    },
  });
}

describe('Kinesis event source mappings', () => {
  it('deliver a put record to the function in the Kinesis event shape', async () => {
    await kinesis.send(new CreateStreamCommand({ StreamName: 'clicks', ShardCount: 2 }));
    const streamArn = `arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/clicks`;
    const out = (await sqs.send(new CreateQueueCommand({ QueueName: 'clicks-out' }))).QueueUrl!;
    await recorder('clicks-reader', out);
    await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'clicks-reader',
        EventSourceArn: streamArn,
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 10,
      }),
    );
    const put = await kinesis.send(
      new PutRecordCommand({
        StreamName: 'clicks',
        PartitionKey: 'user-9',
        Data: Buffer.from('{"page":"/"}'),
      }),
    );
    const [record] = await drain(out, 1);
    expect(record).toMatchObject({
      kinesis: {
        partitionKey: 'user-9',
        sequenceNumber: put.SequenceNumber,
        data: Buffer.from('{"page":"/"}').toString('base64'),
        approximateArrivalTimestamp: expect.any(Number),
      },
      eventSource: 'aws:kinesis',
      eventName: 'aws:kinesis:record',
      eventSourceARN: streamArn,
      eventID: `${put.ShardId}:${put.SequenceNumber}`,
      awsRegion: 'us-east-1',
    });
  });

  it('bisect a failing batch, deliver the good records and send the failing one on', async () => {
    await kinesis.send(new CreateStreamCommand({ StreamName: 'orders', ShardCount: 1 }));
    const streamArn = `arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/orders`;
    const out = (await sqs.send(new CreateQueueCommand({ QueueName: 'orders-out' }))).QueueUrl!;
    const failures = (await sqs.send(new CreateQueueCommand({ QueueName: 'orders-failures' }))).QueueUrl!;
    await kinesis.send(
      new PutRecordsCommand({
        StreamName: 'orders',
        Records: ['a', 'bad', 'c'].map((value) => ({ PartitionKey: 'p', Data: Buffer.from(value) })),
      }),
    );
    await recorder('orders-reader', out);
    await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'orders-reader',
        EventSourceArn: streamArn,
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 10,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 1,
        DestinationConfig: { OnFailure: { Destination: `arn:aws:sqs:us-east-1:${ACCOUNT}:orders-failures` } },
      }),
    );
    const delivered = (await drain(out, 2)) as Array<{ kinesis: { data: string } }>;
    expect(delivered.map((r) => Buffer.from(r.kinesis.data, 'base64').toString()).sort()).toEqual(['a', 'c']);
    const [failure] = await drain(failures, 1);
    expect(failure).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 2 },
      KinesisBatchInfo: { batchSize: 1, streamArn, shardId: 'shardId-000000000000' },
    });
  });
});
