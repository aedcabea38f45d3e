import {
  AddPermissionCommand,
  CreateAliasCommand,
  CreateEventSourceMappingCommand,
  CreateFunctionUrlConfigCommand,
  GetFunctionConfigurationCommand,
  InvokeCommand,
  PublishVersionCommand,
  PutFunctionConcurrencyCommand,
  PutFunctionEventInvokeConfigCommand,
  TagResourceCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, createStubFunction, failure, lambdaClient } from './helpers.js';

/**
 * Lambda's function states: while a new function is Pending, AWS refuses Invoke,
 * UpdateFunctionCode, UpdateFunctionConfiguration and PublishVersion with a
 * ResourceConflictException, and accepts the calls that only attach something to it.
 * cdkd waits before exactly the refused ones, so the sandbox must refuse exactly these.
 */
const ACCOUNT = '123456789012';
let sandbox: Sandbox;
let lambda: LambdaClient;
let queueArn: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  lambda = lambdaClient(sandbox);
  const sqs = new SQSClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'pending-source' }));
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  queueArn = attributes.Attributes!.QueueArn!;
  sqs.destroy();
  // A function stays Pending for a minute after CreateFunction.
  const latency = await admin(sandbox, 'PUT', 'latency', {
    types: { 'AWS::Lambda::Function': { create: 60_000 } },
  });
  expect(latency.status).toBe(200);
});
afterAll(async () => {
  lambda.destroy();
  await sandbox.stop();
});

type Operation = (name: string) => Promise<unknown>;

const CASES: Array<[string, 'refused' | 'accepted', Operation]> = [
  ['Invoke', 'refused', (name) => lambda.send(new InvokeCommand({ FunctionName: name }))],
  [
    'UpdateFunctionCode',
    'refused',
    (name) =>
      lambda.send(
        new UpdateFunctionCodeCommand({
          FunctionName: name,
          ZipFile: new Uint8Array(Buffer.from('PK other zip')),
        }),
      ),
  ],
  [
    'UpdateFunctionConfiguration',
    'refused',
    (name) => lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: name, Timeout: 9 })),
  ],
  ['PublishVersion', 'refused', (name) => lambda.send(new PublishVersionCommand({ FunctionName: name }))],
  [
    'PutFunctionConcurrency',
    'accepted',
    (name) =>
      lambda.send(new PutFunctionConcurrencyCommand({ FunctionName: name, ReservedConcurrentExecutions: 2 })),
  ],
  [
    'CreateAlias on $LATEST',
    'accepted',
    (name) =>
      lambda.send(new CreateAliasCommand({ FunctionName: name, Name: 'live', FunctionVersion: '$LATEST' })),
  ],
  [
    'PutFunctionEventInvokeConfig',
    'accepted',
    (name) =>
      lambda.send(new PutFunctionEventInvokeConfigCommand({ FunctionName: name, MaximumRetryAttempts: 1 })),
  ],
  [
    'CreateFunctionUrlConfig',
    'accepted',
    (name) => lambda.send(new CreateFunctionUrlConfigCommand({ FunctionName: name, AuthType: 'NONE' })),
  ],
  [
    'AddPermission',
    'accepted',
    (name) =>
      lambda.send(
        new AddPermissionCommand({
          FunctionName: name,
          StatementId: 'from-s3',
          Action: 'lambda:InvokeFunction',
          Principal: 's3.amazonaws.com',
        }),
      ),
  ],
  [
    'CreateEventSourceMapping',
    'accepted',
    (name) =>
      lambda.send(new CreateEventSourceMappingCommand({ FunctionName: name, EventSourceArn: queueArn })),
  ],
  [
    'TagResource',
    'accepted',
    (name) =>
      lambda.send(
        new TagResourceCommand({
          Resource: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:${name}`,
          Tags: { team: 'a' },
        }),
      ),
  ],
];

describe('a Pending Lambda function', () => {
  it.each(CASES)('%s is %s', async (operation, verdict, call) => {
    const name = `pending-${operation.replace(/[^A-Za-z]/g, '')}`;
    const created = await createStubFunction(lambda, name, ACCOUNT);
    expect(created.State).toBe('Pending');
    if (verdict === 'refused') {
      const outcome = await failure(call(name));
      expect(outcome).toMatchObject({ name: 'ResourceConflictException', status: 409 });
      expect(outcome.error.message).toBe(
        'The operation cannot be performed at this time. The function is currently in the following state: Pending',
      );
    } else {
      await call(name);
    }
    const after = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name }));
    expect(after.State).toBe('Pending');
  });
});
