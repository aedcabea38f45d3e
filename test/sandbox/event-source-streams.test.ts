import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
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

// DynamoDB Streams on the sandbox: the table's changes as stream records, read through the
// Streams API and by an event source mapping that bisects a failing batch and sends what
// keeps failing to its on-failure destination.
let sandbox: Sandbox;
let dynamodb: DynamoDBClient;
let sqs: SQSClient;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  dynamodb = new DynamoDBClient(clientConfig(sandbox));
  sqs = new SQSClient(clientConfig(sandbox));
  lambda = lambdaClient(sandbox);
});
afterAll(async () => {
  dynamodb.destroy();
  sqs.destroy();
  lambda.destroy();
  await sandbox.stop();
});

async function table(name: string): Promise<string> {
  const created = await dynamodb.send(
    new CreateTableCommand({
      TableName: name,
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 20, minDelay: 1 }, { TableName: name });
  return created.TableDescription!.LatestStreamArn!;
}

interface StreamRecord {
  eventName: string;
  dynamodb?: { OldImage?: { text?: { S?: string } }; NewImage?: { text?: { S?: string } } };
}

/** A DynamoDB Streams call as its JSON 1.0 protocol sends it (the project has no Streams client). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function streamsCall(operation: string, input: unknown): Promise<any> {
  const response = await fetch(sandbox.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDBStreams_20120810.${operation}`,
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIASANDBOXTEST/20300101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: JSON.stringify(input),
  });
  expect(response.status).toBe(200);
  return response.json();
}

const drain = (url: string, count: number) => drainJson(sqs, url, count);

describe('DynamoDB Streams', () => {
  it('records inserts, modifications and removals with the images the view type asks for', async () => {
    const streamArn = await table('notes');
    await dynamodb.send(
      new PutItemCommand({ TableName: 'notes', Item: { id: { S: 'n1' }, text: { S: 'draft' } } }),
    );
    await dynamodb.send(
      new UpdateItemCommand({
        TableName: 'notes',
        Key: { id: { S: 'n1' } },
        UpdateExpression: 'SET #t = :t',
        ExpressionAttributeNames: { '#t': 'text' },
        ExpressionAttributeValues: { ':t': { S: 'final' } },
      }),
    );
    await dynamodb.send(new DeleteItemCommand({ TableName: 'notes', Key: { id: { S: 'n1' } } }));
    await dynamodb.send(new DeleteItemCommand({ TableName: 'notes', Key: { id: { S: 'never-there' } } }));

    const { StreamDescription } = await streamsCall('DescribeStream', { StreamArn: streamArn });
    expect(StreamDescription).toMatchObject({
      StreamStatus: 'ENABLED',
      StreamViewType: 'NEW_AND_OLD_IMAGES',
      TableName: 'notes',
    });
    const { ShardIterator } = await streamsCall('GetShardIterator', {
      StreamArn: streamArn,
      ShardId: StreamDescription.Shards[0].ShardId,
      ShardIteratorType: 'TRIM_HORIZON',
    });
    const { Records } = await streamsCall('GetRecords', { ShardIterator });
    expect(
      (Records as StreamRecord[]).map((r) => [
        r.eventName,
        r.dynamodb?.OldImage?.text?.S,
        r.dynamodb?.NewImage?.text?.S,
      ]),
    ).toEqual([
      ['INSERT', undefined, 'draft'],
      ['MODIFY', 'draft', 'final'],
      ['REMOVE', 'final', undefined],
    ]);
    expect(Records[0].dynamodb.Keys).toEqual({ id: { S: 'n1' } });
  });

  it('feed an event source mapping that bisects a failing batch and sends the failing record on', async () => {
    await createServiceRole(sandbox, 'exec', 'lambda.amazonaws.com', ['sqs:SendMessage']);
    const streamArn = await table('orders');
    const audit = (await sqs.send(new CreateQueueCommand({ QueueName: 'audit' }))).QueueUrl!;
    const failures = (await sqs.send(new CreateQueueCommand({ QueueName: 'audit-failures' }))).QueueUrl!;
    await createFunction(lambda, {
      name: 'auditor',
      environment: { AUDIT_URL: audit },
      files: {
        'index.js': `
const { SQSClient, SendMessageCommand } = require('@aws-sdk/client-sqs');
const sqs = new SQSClient({});
exports.handler = async (event) => {
  if (event.Records.some((r) => r.dynamodb.NewImage.bad)) throw new Error('bad order');
  for (const r of event.Records) {
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.AUDIT_URL, MessageBody: JSON.stringify(r.dynamodb.Keys.id.S) }));
  }
};`,
      },
    });
    await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'auditor',
        EventSourceArn: streamArn,
        StartingPosition: 'LATEST',
        BatchSize: 10,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 1,
        DestinationConfig: { OnFailure: { Destination: `arn:aws:sqs:us-east-1:${ACCOUNT}:audit-failures` } },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    await dynamodb.send(
      new BatchWriteItemCommand({
        RequestItems: {
          orders: [
            { PutRequest: { Item: { id: { S: 'a' } } } },
            { PutRequest: { Item: { id: { S: 'b' }, bad: { BOOL: true } } } },
            { PutRequest: { Item: { id: { S: 'c' } } } },
          ],
        },
      }),
    );

    expect((await drain(audit, 2)).sort()).toEqual(['a', 'c']);
    const [failure] = await drain(failures, 1);
    expect(failure).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 2 },
      DDBStreamBatchInfo: { batchSize: 1, streamArn },
    });
  });
});
