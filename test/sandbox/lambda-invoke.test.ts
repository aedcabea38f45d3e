import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { ACCOUNT, createFunction, lambdaClient, parsePayload } from './lambda-runtime-helpers.js';

let sandbox: Sandbox;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  lambda = lambdaClient(sandbox);
});
afterAll(async () => {
  lambda.destroy();
  await sandbox.stop();
});

const invoke = (name: string, event: unknown = {}) =>
  lambda.send(new InvokeCommand({ FunctionName: name, Payload: Buffer.from(JSON.stringify(event)) }));

describe('Invoke runs Node.js handlers', () => {
  it('runs an async CommonJS handler with the event and the context', async () => {
    await createFunction(lambda, {
      name: 'cjs-async',
      files: {
        'index.js': `exports.handler = async (event, context) => ({
          echo: event.value,
          requestId: context.awsRequestId,
          functionName: context.functionName,
          remaining: context.getRemainingTimeInMillis(),
        });`,
      },
    });
    const response = await invoke('cjs-async', { value: 42 });
    expect(response.StatusCode).toBe(200);
    expect(response.FunctionError).toBeUndefined();
    expect(response.ExecutedVersion).toBe('$LATEST');
    const result = parsePayload(response.Payload) as Record<string, unknown>;
    expect(result).toMatchObject({ echo: 42, functionName: 'cjs-async' });
    expect(result.requestId).toBe(response.$metadata.requestId);
    expect(result.remaining).toBeGreaterThan(0);
    expect(result.remaining).toBeLessThanOrEqual(3000);
  });
});
