import { execFileSync } from 'node:child_process';
import { FilterLogEventsCommand, type CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import {
  AddPermissionCommand,
  InvokeCommand,
  UpdateFunctionConfigurationCommand,
  waitUntilFunctionUpdatedV2,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutBucketNotificationConfigurationCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { CreateTopicCommand, PublishCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { s3Client } from './helpers.js';
import {
  ACCOUNT,
  createFunction,
  lambdaClient,
  clientConfig,
  logsClient,
  parsePayload,
  presignedPutUrl,
} from './lambda-runtime-helpers.js';

let sandbox: Sandbox;
let lambda: LambdaClient;
let s3: S3Client;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  lambda = lambdaClient(sandbox);
  s3 = s3Client(sandbox);
  logs = logsClient(sandbox);
  await s3.send(new CreateBucketCommand({ Bucket: 'handler-bucket' }));
});
afterAll(async () => {
  lambda.destroy();
  s3.destroy();
  logs.destroy();
  await sandbox.stop();
});

const invoke = (name: string, event: unknown = {}) =>
  lambda.send(new InvokeCommand({ FunctionName: name, Payload: Buffer.from(JSON.stringify(event)) }));

async function objectText(key: string): Promise<string | undefined> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: 'handler-bucket', Key: key }));
    return await object.Body!.transformToString();
  } catch {
    return undefined;
  }
}

/** A handler that writes an object with the SDK the runtime provides, back to the sandbox. */
const PUT_OBJECT = `import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
export const handler = async (event) => {
  await new S3Client({}).send(new PutObjectCommand({ Bucket: 'handler-bucket', Key: event.key, Body: event.body }));
  return 'stored';
};`;

describe('a function in its environment', () => {
  it("sees its variables and Lambda's, and its SDK calls come back to the sandbox", async () => {
    await createFunction(lambda, {
      name: 'env',
      environment: { STAGE: 'test', AWS_LAMBDA_FUNCTION_NAME: 'cannot override' },
      files: {
        'index.js': `const { STSClient, GetCallerIdentityCommand } = require('@aws-sdk/client-sts');
          exports.handler = async () => {
            const env = process.env;
            const identity = await new STSClient({}).send(new GetCallerIdentityCommand({}));
            return {
              stage: env.STAGE, name: env.AWS_LAMBDA_FUNCTION_NAME, region: env.AWS_REGION,
              version: env.AWS_LAMBDA_FUNCTION_VERSION, group: env.AWS_LAMBDA_LOG_GROUP_NAME,
              endpoint: env.AWS_ENDPOINT_URL, hasKey: Boolean(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY),
              account: identity.Account,
            };
          };`,
      },
    });
    expect(parsePayload((await invoke('env')).Payload)).toEqual({
      stage: 'test',
      name: 'env',
      region: 'us-east-1',
      version: '$LATEST',
      group: '/aws/lambda/env',
      endpoint: sandbox.url,
      hasKey: true,
      account: ACCOUNT,
    });
  });

  it('runs an Event invocation in the background after answering 202', async () => {
    await createFunction(lambda, { name: 'put-object', files: { 'index.mjs': PUT_OBJECT } });
    const accepted = await lambda.send(
      new InvokeCommand({
        FunctionName: 'put-object',
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify({ key: 'from-event', body: 'async' })),
      }),
    );
    expect(accepted.StatusCode).toBe(202);
    await expect.poll(() => objectText('from-event'), { timeout: 60_000 }).toBe('async');
  });

  /** The function's resource policy lets the service invoke it for that source, as AWS requires. */
  async function allowInvoke(name: string, principal: string, sourceArn: string): Promise<void> {
    await lambda.send(
      new AddPermissionCommand({
        FunctionName: name,
        StatementId: `allow-${principal}`,
        Action: 'lambda:InvokeFunction',
        Principal: principal,
        SourceArn: sourceArn,
      }),
    );
  }

  it('is invoked by SNS with the notification record when a message is published to a topic it subscribes to', async () => {
    await createFunction(lambda, {
      name: 'sns-subscriber',
      files: {
        'index.mjs': `import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
          export const handler = async (event) => {
            const { Sns } = event.Records[0];
            const body = JSON.stringify({ message: JSON.parse(Sns.Message), subject: Sns.Subject, topic: Sns.TopicArn });
            await new S3Client({}).send(new PutObjectCommand({ Bucket: 'handler-bucket', Key: 'from-sns', Body: body }));
          };`,
      },
    });
    const sns = new SNSClient(clientConfig(sandbox));
    try {
      const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'requests' }));
      await allowInvoke('sns-subscriber', 'sns.amazonaws.com', TopicArn!);
      await sns.send(
        new SubscribeCommand({
          TopicArn,
          Protocol: 'lambda',
          Endpoint: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:sns-subscriber`,
        }),
      );
      await sns.send(
        new PublishCommand({
          TopicArn,
          Subject: 'Create',
          Message: JSON.stringify({ RequestType: 'Create' }),
        }),
      );
      await expect.poll(() => objectText('from-sns'), { timeout: 60_000 }).toBeDefined();
      expect(JSON.parse((await objectText('from-sns'))!)).toEqual({
        message: { RequestType: 'Create' },
        subject: 'Create',
        topic: TopicArn,
      });
    } finally {
      sns.destroy();
    }
  });

  it('is invoked by S3 with the event record when an object is written to a bucket that notifies it', async () => {
    await createFunction(lambda, {
      name: 's3-subscriber',
      files: {
        'index.mjs': `import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
          export const handler = async (event) => {
            const [record] = event.Records;
            const body = JSON.stringify({ event: record.eventName, bucket: record.s3.bucket.name, key: record.s3.object.key });
            await new S3Client({}).send(new PutObjectCommand({ Bucket: 'handler-bucket', Key: 'from-s3', Body: body }));
          };`,
      },
    });
    await s3.send(new CreateBucketCommand({ Bucket: 'notifying-bucket' }));
    await allowInvoke('s3-subscriber', 's3.amazonaws.com', 'arn:aws:s3:::notifying-bucket');
    await s3.send(
      new PutBucketNotificationConfigurationCommand({
        Bucket: 'notifying-bucket',
        NotificationConfiguration: {
          LambdaFunctionConfigurations: [
            {
              LambdaFunctionArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:s3-subscriber`,
              Events: ['s3:ObjectCreated:Put'],
            },
          ],
        },
      }),
    );
    await s3.send(new PutObjectCommand({ Bucket: 'notifying-bucket', Key: 'photo.jpg', Body: 'jpg' }));
    await expect.poll(() => objectText('from-s3'), { timeout: 60_000 }).toBeDefined();
    expect(JSON.parse((await objectText('from-s3'))!)).toEqual({
      event: 'ObjectCreated:Put',
      bucket: 'notifying-bucket',
      key: 'photo.jpg',
    });
  });

  it("writes a failing Event invocation's error to the function's log", async () => {
    await createFunction(lambda, {
      name: 'event-fails',
      files: { 'index.js': "exports.handler = async () => { throw new TypeError('event went wrong'); };" },
    });
    const accepted = await lambda.send(
      new InvokeCommand({ FunctionName: 'event-fails', InvocationType: 'Event' }),
    );
    expect(accepted.StatusCode).toBe(202);
    const messages = async () =>
      (
        await logs
          .send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/event-fails' }))
          .catch(() => ({
            events: [],
          }))
      ).events?.map((event) => event.message!) ?? [];
    await expect
      .poll(async () => (await messages()).some((m) => m.startsWith('END RequestId:')), { timeout: 60_000 })
      .toBe(true);
    expect((await messages()).some((message) => message.includes('TypeError: event went wrong'))).toBe(true);
  });

  it('writes what it prints to /aws/lambda/<name> with START, END and REPORT lines', async () => {
    await createFunction(lambda, {
      name: 'printer',
      files: {
        'index.js': `exports.handler = async (event) => {
          console.log('processing', event.id);
          if (event.fail) throw new Error('handler broke');
          return 'ok';
        };`,
      },
    });
    const tailed = await lambda.send(
      new InvokeCommand({
        FunctionName: 'printer',
        LogType: 'Tail',
        Payload: Buffer.from('{"id":"a1","fail":true}'),
      }),
    );
    expect(tailed.FunctionError).toBe('Unhandled');
    const tail = Buffer.from(tailed.LogResult!, 'base64').toString('utf8');
    expect(tail).toContain('processing a1');
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/printer' }));
    const messages = events!.map((event) => event.message!);
    const requestId = tailed.$metadata.requestId!;
    expect(messages[0]).toBe(`START RequestId: ${requestId} Version: $LATEST`);
    expect(
      messages.some((message) => /\tINFO\tprocessing a1$/.test(message) && message.includes(requestId)),
    ).toBe(true);
    expect(messages.some((message) => message.includes('Error: handler broke'))).toBe(true);
    expect(messages).toContain(`END RequestId: ${requestId}`);
    expect(messages.some((message) => message.startsWith(`REPORT RequestId: ${requestId}\tDuration: `))).toBe(
      true,
    );
    expect(events!.every((event) => event.logStreamName!.includes('[$LATEST]'))).toBe(true);
  });

  it("writes to LoggingConfig's LogGroup when the function names one, and tells the handler so", async () => {
    await createFunction(lambda, {
      name: 'own-group',
      files: {
        'index.js': `exports.handler = async () => { console.log('to my group'); return process.env.AWS_LAMBDA_LOG_GROUP_NAME; };`,
      },
    });
    await lambda.send(
      new UpdateFunctionConfigurationCommand({
        FunctionName: 'own-group',
        LoggingConfig: { LogGroup: '/app/own-group' },
      }),
    );
    await waitUntilFunctionUpdatedV2(
      { client: lambda, maxWaitTime: 30, minDelay: 1 },
      { FunctionName: 'own-group' },
    );
    expect(parsePayload((await invoke('own-group')).Payload)).toBe('/app/own-group');
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/app/own-group' }));
    expect(events!.some((event) => event.message!.includes('to my group'))).toBe(true);
    const defaultGroup = await logs
      .send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/own-group' }))
      .catch((error: Error) => error);
    expect(defaultGroup).toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('answers a presigned S3 URL with https.request to the sandbox host and no port, as the CDK handlers do', async () => {
    await createFunction(lambda, {
      name: 'responder',
      files: {
        'index.js': `const https = require('https');
          const url = require('url');
          const put = (target, body) => new Promise((resolve, reject) => {
            const callback = (response) => { response.resume(); resolve(response.statusCode); };
            const headers = { 'content-type': '', 'content-length': Buffer.byteLength(body) };
            const request = typeof target === 'string'
              ? https.request(target, { method: 'PUT', headers }, callback)
              : https.request({ ...target, method: 'PUT', headers }, callback);
            request.on('error', reject);
            request.end(body);
          });
          exports.handler = async (event) => {
            const body = JSON.stringify({ Status: 'SUCCESS', PhysicalResourceId: event.id });
            if (event.asString) return put(event.ResponseURL.replace(/^http:\\/\\/127\\.0\\.0\\.1:\\d+/, 'https://localhost'), body);
            const parsed = url.parse(event.ResponseURL);
            return put({ hostname: parsed.hostname, path: parsed.path }, body);
          };`,
      },
    });
    const asOptions = presignedPutUrl(sandbox, 'handler-bucket', 'responses/req-1');
    expect(parsePayload((await invoke('responder', { ResponseURL: asOptions, id: 'p1' })).Payload)).toBe(200);
    expect(JSON.parse((await objectText('responses/req-1'))!)).toEqual({
      Status: 'SUCCESS',
      PhysicalResourceId: 'p1',
    });
    // The same for a URL string naming localhost, port 443.
    const asString = presignedPutUrl(sandbox, 'handler-bucket', 'responses/req-2');
    const answered = await invoke('responder', { ResponseURL: asString, id: 'p2', asString: true });
    expect(parsePayload(answered.Payload)).toBe(200);
    expect(JSON.parse((await objectText('responses/req-2'))!)).toEqual({
      Status: 'SUCCESS',
      PhysicalResourceId: 'p2',
    });
  });
});

const python = pythonWithBoto3();

// CI installs python3-boto3 (.ci/run); without python3 and boto3 the sandbox cannot run these.
describe.skipIf(!python)(
  `a Python function${python ? '' : ' (skipped: python3 with boto3 is not installed; .ci/run installs python3-boto3)'}`,
  () => {
    it('runs the handler with boto3 pointed at the sandbox', async () => {
      await createFunction(lambda, {
        name: 'python',
        runtime: 'python3.12',
        handler: 'app.handler',
        files: {
          'app.py': `import boto3, os
def handler(event, context):
    print("python got", event["key"])
    boto3.client("s3").put_object(Bucket="handler-bucket", Key=event["key"], Body=b"from python")
    return {"name": context.function_name, "remaining": context.get_remaining_time_in_millis() > 0}
`,
        },
      });
      const response = await invoke('python', { key: 'from-python' });
      expect(response.FunctionError).toBeUndefined();
      expect(parsePayload(response.Payload)).toEqual({ name: 'python', remaining: true });
      expect(await objectText('from-python')).toBe('from python');
      const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/python' }));
      expect(events!.some((event) => event.message === 'python got from-python')).toBe(true);
    });

    it('answers a raised exception with errorType, errorMessage and stackTrace', async () => {
      await createFunction(lambda, {
        name: 'python-fails',
        runtime: 'python3.12',
        handler: 'app.handler',
        files: { 'app.py': 'def handler(event, context):\n    raise ValueError("bad input")\n' },
      });
      const response = await invoke('python-fails');
      expect(response.FunctionError).toBe('Unhandled');
      expect(parsePayload(response.Payload)).toMatchObject({
        errorType: 'ValueError',
        errorMessage: 'bad input',
      });
    });
  },
);

function pythonWithBoto3(): boolean {
  try {
    execFileSync('python3', ['-c', 'import boto3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
