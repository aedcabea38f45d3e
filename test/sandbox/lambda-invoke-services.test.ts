import { execFileSync } from 'node:child_process';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { s3Client } from './helpers.js';
import { ACCOUNT, createFunction, lambdaClient, parsePayload } from './lambda-runtime-helpers.js';

let sandbox: Sandbox;
let lambda: LambdaClient;
let s3: S3Client;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  lambda = lambdaClient(sandbox);
  s3 = s3Client(sandbox);
  logs = new CloudWatchLogsClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'x' },
    maxAttempts: 1,
  });
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
    await expect.poll(() => objectText('from-event'), { timeout: 15_000 }).toBe('async');
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

  it('answers a presigned S3 URL with https.request to the sandbox host and no port, as the CDK handlers do', async () => {
    await createFunction(lambda, {
      name: 'responder',
      files: {
        'index.js': `const https = require('https');
          const url = require('url');
          exports.handler = async (event) => {
            const parsed = url.parse(event.ResponseURL);
            const body = JSON.stringify({ Status: 'SUCCESS', PhysicalResourceId: 'p1' });
            return new Promise((resolve, reject) => {
              const request = https.request(
                { hostname: parsed.hostname, path: parsed.path, method: 'PUT',
                  headers: { 'content-type': '', 'content-length': Buffer.byteLength(body) } },
                (response) => { response.resume(); resolve(response.statusCode); },
              );
              request.on('error', reject);
              request.end(body);
            });
          };`,
      },
    });
    const responseUrl = presignedPutUrl(sandbox.url, 'handler-bucket', 'responses/req-1');
    expect(parsePayload((await invoke('responder', { ResponseURL: responseUrl })).Payload)).toBe(200);
    expect(JSON.parse((await objectText('responses/req-1'))!)).toEqual({
      Status: 'SUCCESS',
      PhysicalResourceId: 'p1',
    });
  });
});

const python = pythonWithBoto3();

describe('a Python function', () => {
  // CI installs python3-boto3 (.ci/run); a machine without it cannot run Python functions at all.
  it.skipIf(!python)(
    'runs the handler with boto3 pointed at the sandbox (skipped: python3 with boto3 is not installed)',
    async () => {
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
    },
  );

  it.skipIf(!python)(
    'answers a raised exception with errorType, errorMessage and stackTrace (skipped: no python3)',
    async () => {
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
    },
  );
});

function pythonWithBoto3(): boolean {
  try {
    execFileSync('python3', ['-c', 'import boto3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A presigned PUT URL as the S3 presigner writes it (the sandbox routes by the credential scope, not the signature). */
function presignedPutUrl(endpoint: string, bucket: string, key: string): string {
  const query = new URLSearchParams({
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': 'AKIASANDBOXTEST/20260101/us-east-1/s3/aws4_request',
    'X-Amz-Date': '20260101T000000Z',
    'X-Amz-Expires': '3600',
    'X-Amz-SignedHeaders': 'host',
    'X-Amz-Signature': '0'.repeat(64),
  });
  return `${endpoint}/${bucket}/${key}?${query}`;
}
