import {
  CloudControlClient,
  GetResourceRequestStatusCommand,
  type ProgressEvent,
} from '@aws-sdk/client-cloudcontrol';
import { EC2Client } from '@aws-sdk/client-ec2';
import { CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

const credentials = { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' };

export function s3Client(
  sandbox: Sandbox,
  options: { region?: string; maxAttempts?: number } = {},
): S3Client {
  return new S3Client({
    endpoint: sandbox.url,
    forcePathStyle: true,
    region: options.region ?? 'us-east-1',
    credentials,
    maxAttempts: options.maxAttempts ?? 1,
  });
}

export function stsClient(sandbox: Sandbox): STSClient {
  return new STSClient({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
}

export function cloudControlClient(sandbox: Sandbox, options: { region?: string } = {}): CloudControlClient {
  return new CloudControlClient({
    endpoint: sandbox.url,
    region: options.region ?? 'us-east-1',
    credentials,
    maxAttempts: 1,
  });
}

export function ec2Client(sandbox: Sandbox, region = 'us-east-1'): EC2Client {
  return new EC2Client({ endpoint: sandbox.url, region, credentials, maxAttempts: 1 });
}

export function lambdaClient(sandbox: Sandbox): LambdaClient {
  return new LambdaClient({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
}

/** A Node.js function with a stub package and a role ARN in `account`, for tests of what hangs off a function. */
export function createStubFunction(lambda: LambdaClient, FunctionName: string, account: string) {
  return lambda.send(
    new CreateFunctionCommand({
      FunctionName,
      Role: `arn:aws:iam::${account}:role/exec`,
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Code: { ZipFile: new Uint8Array(Buffer.from('PK fake zip')) },
    }),
  );
}

export function ssmClient(sandbox: Sandbox): SSMClient {
  return new SSMClient({ endpoint: sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
}

/** Polls a Cloud Control request every 10 ms until it ends; returns every status seen. */
export async function settle(
  client: CloudControlClient,
  first: ProgressEvent,
): Promise<{ event: ProgressEvent; statuses: string[] }> {
  const statuses = [first.OperationStatus!];
  let event = first;
  while (!['SUCCESS', 'FAILED', 'CANCEL_COMPLETE'].includes(event.OperationStatus!)) {
    await new Promise((done) => setTimeout(done, 10));
    event = (await client.send(new GetResourceRequestStatusCommand({ RequestToken: first.RequestToken })))
      .ProgressEvent!;
    if (statuses[statuses.length - 1] !== event.OperationStatus) statuses.push(event.OperationStatus!);
  }
  return { event, statuses };
}

/** Starts a sandbox on a free port and returns it with an S3 client, both stopped by `close`. */
export async function withSandbox(options: SandboxOptions = {}): Promise<{
  sandbox: Sandbox;
  s3: S3Client;
  close: () => Promise<void>;
}> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const s3 = s3Client(sandbox);
  return {
    sandbox,
    s3,
    close: async () => {
      s3.destroy();
      await sandbox.stop();
    },
  };
}

/** Calls the admin API and returns the parsed JSON body with the status. */
export async function admin(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  // Responses are asserted field by field in the tests; a full type per route adds nothing.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** The rejection of a promise, for asserting on an SDK error's name and status. */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ name: string; status?: number; error: Error & Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; $metadata?: { httpStatusCode?: number } };
    return {
      name: e.name,
      status: e.$metadata?.httpStatusCode,
      error: error as Error & Record<string, unknown>,
    };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Receives from the queue until `count` JSON bodies came, or the deadline passes; deletes what it read. */
export async function drainJson(
  sqs: SQSClient,
  url: string,
  count: number,
  deadlineMs = 20_000,
): Promise<unknown[]> {
  const bodies: unknown[] = [];
  const until = Date.now() + deadlineMs;
  while (bodies.length < count && Date.now() < until) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }),
    );
    for (const message of Messages) {
      bodies.push(JSON.parse(message.Body!));
      await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
    }
    if (Messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return bodies;
}
