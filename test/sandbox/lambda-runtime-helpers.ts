import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import {
  CreateFunctionCommand,
  LambdaClient,
  waitUntilFunctionActiveV2,
  type Runtime,
} from '@aws-sdk/client-lambda';
import { zipSync, strToU8 } from 'fflate';
import type { Sandbox } from '../../src/sandbox/server.js';

export const ACCOUNT = '123456789012';
export const ROLE = `arn:aws:iam::${ACCOUNT}:role/exec`;

/** Settings for any SDK client against the sandbox. */
export const clientConfig = (sandbox: Sandbox) => ({
  endpoint: sandbox.url,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'x' },
  maxAttempts: 1,
});

export const lambdaClient = (sandbox: Sandbox): LambdaClient => new LambdaClient(clientConfig(sandbox));

export const logsClient = (sandbox: Sandbox): CloudWatchLogsClient =>
  new CloudWatchLogsClient(clientConfig(sandbox));

/**
 * A presigned PUT URL in the shape the S3 presigner writes (the sandbox routes it by the
 * credential scope in the query string; it does not check signatures).
 */
export function presignedPutUrl(sandbox: Sandbox, bucket: string, key: string): string {
  const query = new URLSearchParams({
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': 'AKIASANDBOXTEST/20260101/us-east-1/s3/aws4_request',
    'X-Amz-Date': '20260101T000000Z',
    'X-Amz-Expires': '3600',
    'X-Amz-SignedHeaders': 'host',
    'X-Amz-Signature': '0'.repeat(64),
  });
  return `${sandbox.url}/${bucket}/${key}?${query}`;
}

/** A deployment package holding the given files (path → source text). */
export function zip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])));
}

export interface FunctionSpec {
  name: string;
  files: Record<string, string>;
  handler?: string;
  runtime?: string;
  /** Seconds; 30 unless given, so a cold start on a busy machine does not time out. */
  timeout?: number;
  environment?: Record<string, string>;
  layers?: string[];
}

/** Creates a function from source files and waits until it is Active. */
export async function createFunction(lambda: LambdaClient, spec: FunctionSpec): Promise<void> {
  await lambda.send(
    new CreateFunctionCommand({
      FunctionName: spec.name,
      Runtime: (spec.runtime ?? 'nodejs20.x') as Runtime,
      Role: ROLE,
      Handler: spec.handler ?? 'index.handler',
      Code: { ZipFile: zip(spec.files) },
      Timeout: spec.timeout ?? 30,
      ...(spec.environment ? { Environment: { Variables: spec.environment } } : {}),
      ...(spec.layers ? { Layers: spec.layers } : {}),
    }),
  );
  await waitUntilFunctionActiveV2(
    { client: lambda, maxWaitTime: 30, minDelay: 1 },
    { FunctionName: spec.name },
  );
}

/** The JSON a function answered. */
export function parsePayload(payload: Uint8Array | undefined): unknown {
  return JSON.parse(Buffer.from(payload ?? new Uint8Array()).toString('utf8'));
}

/** A role the service principal may assume, whose inline policy allows `actions` on every resource. */
export async function createServiceRole(
  sandbox: Sandbox,
  name: string,
  service: string,
  actions: string[],
): Promise<void> {
  const iam = new IAMClient(clientConfig(sandbox));
  await iam.send(
    new CreateRoleCommand({
      RoleName: name,
      AssumeRolePolicyDocument: JSON.stringify({
        Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' }],
      }),
    }),
  );
  await iam.send(
    new PutRolePolicyCommand({
      RoleName: name,
      PolicyName: 'allowed',
      PolicyDocument: JSON.stringify({ Statement: [{ Effect: 'Allow', Action: actions, Resource: '*' }] }),
    }),
  );
  iam.destroy();
}
