import { CreateResourceCommand, type CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import { CreateTableCommand, DynamoDBClient, ListTagsOfResourceCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutParameterCommand, type PutParameterCommandInput, type SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, s3Client, settle, ssmClient } from './helpers.js';

// Where a chaos run caught the sandbox accepting what AWS refuses, or losing what AWS keeps:
// each answer here is AWS's, through the real AWS SDK.
let sandbox: Sandbox;
let s3: S3Client;
let ssm: SSMClient;
let cc: CloudControlClient;
const credentials = { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' };
const client = () => ({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  s3 = s3Client(sandbox);
  ssm = ssmClient(sandbox);
  cc = cloudControlClient(sandbox);
});
afterAll(async () => {
  s3.destroy();
  ssm.destroy();
  cc.destroy();
  await sandbox.stop();
});

const REFUSED_NAMES = ['with space', 'snow☃man'];
const SSM_NAME_MESSAGE =
  'Parameter name: can\'t be prefixed with "aws" or "ssm" (case-insensitive). If formed as a path, it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of letters, numbers and the following 3 symbols .-_';

describe('S3 keeps . and .. key segments literally', () => {
  it.each(['a/./b', 'a/../b', '../up', 'x/..', './here'])('%s', async (Key) => {
    const Bucket = `dots-${Math.abs(hash(Key))}`;
    await s3.send(new CreateBucketCommand({ Bucket }));
    await s3.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
    const listed = await s3.send(new ListObjectsV2Command({ Bucket }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual([Key]);
    const read = await s3.send(new GetObjectCommand({ Bucket, Key }));
    expect(await read.Body!.transformToString()).toBe(Key);
  });

  it('a normalised spelling of the key names another object', async () => {
    const Bucket = 'dots-distinct';
    await s3.send(new CreateBucketCommand({ Bucket }));
    await s3.send(new PutObjectCommand({ Bucket, Key: 'a/../b', Body: 'literal' }));
    expect(await failure(s3.send(new GetObjectCommand({ Bucket, Key: 'b' })))).toMatchObject({
      name: 'NoSuchKey',
    });
  });
});

describe('names AWS refuses', () => {
  it.each(REFUSED_NAMES)('SQS CreateQueue %j: InvalidParameterValue', async (QueueName) => {
    const sqs = new SQSClient(client());
    expect(await failure(sqs.send(new CreateQueueCommand({ QueueName })))).toMatchObject({
      name: 'InvalidParameterValue',
      error: expect.objectContaining({
        message: 'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length',
      }),
    });
  });

  it.each(REFUSED_NAMES)('SNS CreateTopic %j: InvalidParameter', async (Name) => {
    const sns = new SNSClient(client());
    expect(await failure(sns.send(new CreateTopicCommand({ Name })))).toMatchObject({
      error: expect.objectContaining({ message: 'Invalid parameter: Topic Name' }),
    });
  });

  it.each([...REFUSED_NAMES, 'awsReserved', '/ssm/reserved', 'SSM-upper'])(
    'SSM PutParameter %j: ValidationException',
    async (Name) => {
      const error = await failure(ssm.send(new PutParameterCommand({ Name, Value: 'v', Type: 'String' })));
      expect(error).toMatchObject({
        name: 'ValidationException',
        error: expect.objectContaining({ message: SSM_NAME_MESSAGE }),
      });
    },
  );

  it('SSM accepts the names AWS accepts', async () => {
    for (const Name of ['/app/db.url-1_x', 'plain', 'awe-some'])
      await ssm.send(new PutParameterCommand({ Name, Value: 'v', Type: 'String' }));
  });

  it('SSM PutParameter without Value: a ValidationException naming the member', async () => {
    const input = { Name: '/no/value', Type: 'String' } as PutParameterCommandInput;
    expect(await failure(ssm.send(new PutParameterCommand(input)))).toMatchObject({
      name: 'ValidationException',
      error: expect.objectContaining({
        message:
          "1 validation error detected: Value null at 'value' failed to satisfy constraint: Member must not be null",
      }),
    });
  });

  it.each([
    ['AWS::SQS::Queue', { QueueName: 'with space' }, 'Can only include alphanumeric characters'],
    ['AWS::SNS::Topic', { TopicName: 'snow☃man' }, 'Invalid parameter: Topic Name'],
    ['AWS::SSM::Parameter', { Name: 'with space', Type: 'String', Value: 'v' }, SSM_NAME_MESSAGE],
  ])('Cloud Control %s: the create fails with the service message', async (TypeName, desired, message) => {
    const { ProgressEvent } = await cc.send(
      new CreateResourceCommand({ TypeName, DesiredState: JSON.stringify(desired) }),
    );
    const { event } = await settle(cc, ProgressEvent!);
    expect(event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'InvalidRequest' });
    expect(event.StatusMessage).toContain(message);
  });
});

describe('DynamoDB CreateTable keeps Tags', () => {
  it('ListTagsOfResource returns the tags CreateTable was given', async () => {
    const ddb = new DynamoDBClient(client());
    const created = await ddb.send(
      new CreateTableCommand({
        TableName: 'tagged-table',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
        Tags: [
          { Key: 'team', Value: 'storage' },
          { Key: 'env', Value: 'test' },
        ],
      }),
    );
    const tags = await ddb.send(
      new ListTagsOfResourceCommand({ ResourceArn: created.TableDescription!.TableArn! }),
    );
    expect(tags.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'team', Value: 'storage' },
        { Key: 'env', Value: 'test' },
      ]),
    );
    expect(tags.Tags).toHaveLength(2);
  });
});

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) | 0;
  return value;
}
