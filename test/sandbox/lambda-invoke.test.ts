import {
  CreateAliasCommand,
  InvokeCommand,
  PublishVersionCommand,
  PublishLayerVersionCommand,
  UpdateFunctionCodeCommand,
  waitUntilFunctionUpdatedV2,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure } from './helpers.js';
import { ACCOUNT, createFunction, lambdaClient, parsePayload, zip } from './lambda-runtime-helpers.js';

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
          arn: context.invokedFunctionArn,
          memory: context.memoryLimitInMB,
          remaining: context.getRemainingTimeInMillis(),
        });`,
      },
    });
    const response = await invoke('cjs-async', { value: 42 });
    expect(response.StatusCode).toBe(200);
    expect(response.FunctionError).toBeUndefined();
    expect(response.ExecutedVersion).toBe('$LATEST');
    const result = parsePayload(response.Payload) as Record<string, unknown>;
    expect(result).toMatchObject({
      echo: 42,
      functionName: 'cjs-async',
      arn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:cjs-async`,
      memory: '128',
    });
    expect(result.requestId).toBe(response.$metadata.requestId);
    expect(result.remaining).toBeGreaterThan(0);
    expect(result.remaining).toBeLessThanOrEqual(30_000);
  });

  it('runs an ES module handler in a subdirectory', async () => {
    await createFunction(lambda, {
      name: 'esm',
      handler: 'src/app.main',
      files: {
        'src/app.mjs': `import { helper } from './helper.mjs';\nexport const main = async (event) => helper(event.name);`,
        'src/helper.mjs': `export const helper = (name) => 'hello ' + name;`,
      },
    });
    expect(parsePayload((await invoke('esm', { name: 'esm' })).Payload)).toBe('hello esm');
  });

  it('runs a callback handler, for a result and for an error', async () => {
    await createFunction(lambda, {
      name: 'callback',
      files: {
        'index.js': `exports.handler = (event, context, callback) => {
          setTimeout(() => event.fail ? callback(new Error('callback failed')) : callback(null, { done: true }), 10);
        };`,
      },
    });
    expect(parsePayload((await invoke('callback')).Payload)).toEqual({ done: true });
    const failed = await invoke('callback', { fail: true });
    expect(failed.FunctionError).toBe('Unhandled');
    expect(parsePayload(failed.Payload)).toMatchObject({
      errorType: 'Error',
      errorMessage: 'callback failed',
    });
  });

  it('answers a thrown error as Lambda does: FunctionError Unhandled and {errorType, errorMessage, trace}', async () => {
    await createFunction(lambda, {
      name: 'throws',
      files: {
        'index.mjs': `class BucketGone extends Error { constructor(m) { super(m); this.name = 'BucketGone'; } }
          export const handler = async () => { throw new BucketGone('no such bucket: b1'); };`,
      },
    });
    const response = await invoke('throws');
    expect(response.StatusCode).toBe(200);
    expect(response.FunctionError).toBe('Unhandled');
    const error = parsePayload(response.Payload) as {
      errorType: string;
      errorMessage: string;
      trace: string[];
    };
    expect(error.errorType).toBe('BucketGone');
    expect(error.errorMessage).toBe('no such bucket: b1');
    expect(error.trace[0]).toContain('BucketGone: no such bucket: b1');
  });

  it('names a missing module or export with the runtime error types', async () => {
    await createFunction(lambda, {
      name: 'no-export',
      handler: 'index.missing',
      files: { 'index.js': 'exports.handler = async () => 1;' },
    });
    const notExported = await invoke('no-export');
    expect(notExported.FunctionError).toBe('Unhandled');
    expect(parsePayload(notExported.Payload)).toMatchObject({
      errorType: 'Runtime.HandlerNotFound',
      errorMessage: 'index.missing is undefined or not exported',
    });
    await createFunction(lambda, {
      name: 'no-module',
      handler: 'app.handler',
      files: { 'index.js': 'exports.handler = async () => 1;' },
    });
    expect(parsePayload((await invoke('no-module')).Payload)).toMatchObject({
      errorType: 'Runtime.ImportModuleError',
    });
  });

  it("enforces Timeout with Lambda's error, and the next invocation gets a fresh process", async () => {
    await createFunction(lambda, {
      name: 'slow',
      timeout: 1,
      files: {
        'index.js': `let calls = 0;
          exports.handler = async (event) => {
            calls += 1;
            if (event.hang) await new Promise(() => setInterval(() => {}, 1000));
            return { pid: process.pid, calls };
          };`,
      },
    });
    const before = parsePayload((await invoke('slow')).Payload) as { pid: number; calls: number };
    const timedOut = await invoke('slow', { hang: true });
    expect(timedOut.FunctionError).toBe('Unhandled');
    const error = parsePayload(timedOut.Payload) as { errorType: string; errorMessage: string };
    expect(error.errorType).toBe('Sandbox.Timedout');
    expect(error.errorMessage).toMatch(/^RequestId: \S+ Error: Task timed out after 1\.00 seconds$/);
    const after = parsePayload((await invoke('slow')).Payload) as { pid: number; calls: number };
    expect(after.pid).not.toBe(before.pid);
    expect(after.calls).toBe(1);
    expect(() => process.kill(before.pid, 0)).toThrow();
  });

  it('keeps a warm process between invocations and replaces it when the code changes', async () => {
    const counter = (tag: string) => ({
      'index.js': `let calls = 0; exports.handler = async () => ({ tag: '${tag}', calls: ++calls, pid: process.pid });`,
    });
    await createFunction(lambda, { name: 'warm', files: counter('v1') });
    const first = parsePayload((await invoke('warm')).Payload) as { calls: number; pid: number };
    const second = parsePayload((await invoke('warm')).Payload) as { calls: number; pid: number };
    expect(second).toMatchObject({ tag: 'v1', calls: 2, pid: first.pid });
    await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'warm', ZipFile: zip(counter('v2')) }));
    await waitUntilFunctionUpdatedV2(
      { client: lambda, maxWaitTime: 30, minDelay: 1 },
      { FunctionName: 'warm' },
    );
    const updated = parsePayload((await invoke('warm')).Payload) as { calls: number; pid: number };
    expect(updated).toMatchObject({ tag: 'v2', calls: 1 });
    expect(() => process.kill(first.pid, 0)).toThrow();
  });

  it("runs a published version or an alias with that version's code", async () => {
    const tagged = (tag: string) => ({
      'index.js': `exports.handler = async (e, context) => ['${tag}', context.invokedFunctionArn];`,
    });
    await createFunction(lambda, { name: 'versioned', files: tagged('one') });
    const published = await lambda.send(new PublishVersionCommand({ FunctionName: 'versioned' }));
    await lambda.send(
      new CreateAliasCommand({
        FunctionName: 'versioned',
        Name: 'live',
        FunctionVersion: published.Version!,
      }),
    );
    await lambda.send(
      new UpdateFunctionCodeCommand({ FunctionName: 'versioned', ZipFile: zip(tagged('two')) }),
    );
    await waitUntilFunctionUpdatedV2(
      { client: lambda, maxWaitTime: 30, minDelay: 1 },
      { FunctionName: 'versioned' },
    );
    const arn = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:versioned`;
    const byVersion = await lambda.send(new InvokeCommand({ FunctionName: 'versioned', Qualifier: '1' }));
    expect(byVersion.ExecutedVersion).toBe('1');
    expect(parsePayload(byVersion.Payload)).toEqual(['one', `${arn}:1`]);
    const byAlias = await lambda.send(new InvokeCommand({ FunctionName: 'versioned:live' }));
    expect(byAlias.ExecutedVersion).toBe('1');
    expect(parsePayload(byAlias.Payload)).toEqual(['one', `${arn}:live`]);
    expect(parsePayload((await invoke('versioned')).Payload)).toEqual(['two', arn]);
  });

  it('puts layers on the module path, as /opt/nodejs/node_modules', async () => {
    const layer = await lambda.send(
      new PublishLayerVersionCommand({
        LayerName: 'greeting',
        Content: {
          ZipFile: zip({ 'nodejs/node_modules/greeting/index.js': "exports.greet = (n) => 'hi ' + n;" }),
        },
      }),
    );
    await createFunction(lambda, {
      name: 'with-layer',
      layers: [layer.LayerVersionArn!],
      files: {
        'index.js': "const { greet } = require('greeting'); exports.handler = async () => greet('layer');",
      },
    });
    expect(parsePayload((await invoke('with-layer')).Payload)).toBe('hi layer');
  });

  it('runs nothing for DryRun, and refuses a payload that is not JSON', async () => {
    const dryRun = await lambda.send(
      new InvokeCommand({ FunctionName: 'cjs-async', InvocationType: 'DryRun' }),
    );
    expect(dryRun.StatusCode).toBe(204);
    const bad = await failure(
      lambda.send(new InvokeCommand({ FunctionName: 'cjs-async', Payload: Buffer.from('{nope') })),
    );
    expect(bad.name).toBe('InvalidRequestContentException');
    expect((await failure(invoke('no-such-function'))).name).toBe('ResourceNotFoundException');
  });

  it('answers InvalidRuntimeException naming a runtime the sandbox cannot run', async () => {
    await createFunction(lambda, {
      name: 'java',
      runtime: 'java21',
      handler: 'example.Handler::handleRequest',
      files: { 'Handler.class': 'not really' },
    });
    const refused = await failure(invoke('java'));
    expect(refused.name).toBe('InvalidRuntimeException');
    expect(refused.error.message).toContain('java21');
    expect(refused.error.message).toContain('function java');
  });
});

describe('stopping the sandbox', () => {
  it('kills the warm processes it started', async () => {
    const own = await startSandbox({ port: 0, accountId: ACCOUNT });
    const client = lambdaClient(own);
    try {
      await createFunction(client, {
        name: 'pid',
        files: { 'index.js': 'exports.handler = async () => process.pid;' },
      });
      const pid = parsePayload(
        (await client.send(new InvokeCommand({ FunctionName: 'pid' }))).Payload,
      ) as number;
      expect(() => process.kill(pid, 0)).not.toThrow();
      await own.stop();
      await expect.poll(() => alive(pid), { timeout: 60_000 }).toBe(false);
    } finally {
      client.destroy();
      await own.stop().catch(() => {});
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
