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

export function lambdaClient(sandbox: Sandbox): LambdaClient {
  return new LambdaClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'x' },
    maxAttempts: 1,
  });
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
      ...(spec.timeout !== undefined ? { Timeout: spec.timeout } : {}),
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
