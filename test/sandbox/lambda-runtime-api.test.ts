import { afterEach, describe, expect, it } from 'vitest';
import {
  RuntimeApi,
  type RuntimeApiInvocation,
} from '../../src/sandbox/services/lambda/runtime/image/runtime-api.js';

const invocation: RuntimeApiInvocation = {
  requestId: 'req-1',
  payload: '{"hello":"wörld"}',
  timeoutMs: 3000,
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:f:live',
  clientContext: Buffer.from('{"custom":{"a":1}}').toString('base64'),
};

let api: RuntimeApi | undefined;
afterEach(() => api?.close());

const url = (path: string) => `http://${api!.address}/2018-06-01/runtime${path}`;
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url(path), { method: 'POST', body, headers });

describe("the runtime API an image function's container talks to", () => {
  it("hands out the invocation with Lambda's headers, then takes its response", async () => {
    api = await RuntimeApi.start(invocation);
    let deadline = 0;
    api.onNext = (at) => (deadline = at);
    const before = Date.now();
    const next = await fetch(url('/invocation/next'));
    expect(next.status).toBe(200);
    expect(await next.text()).toBe(invocation.payload);
    expect(next.headers.get('lambda-runtime-aws-request-id')).toBe('req-1');
    expect(next.headers.get('lambda-runtime-invoked-function-arn')).toBe(invocation.invokedFunctionArn);
    expect(next.headers.get('lambda-runtime-client-context')).toBe('{"custom":{"a":1}}');
    expect(next.headers.get('lambda-runtime-trace-id')).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24};/);
    const deadlineHeader = Number(next.headers.get('lambda-runtime-deadline-ms'));
    expect(deadlineHeader).toBe(deadline);
    expect(deadlineHeader).toBeGreaterThanOrEqual(before + 3000);
    expect(api.fetched).toBe(true);

    const wrongId = await post('/invocation/other/response', '{}');
    expect(wrongId.status).toBe(400);
    expect(await wrongId.json()).toEqual({
      errorMessage: 'Invalid request ID',
      errorType: 'InvalidRequestID',
    });

    const answered = await post('/invocation/req-1/response', '{"ok":true}');
    expect(answered.status).toBe(202);
    expect(await answered.json()).toEqual({ status: 'OK' });
    expect(await api.reported).toEqual({ kind: 'result', payload: '{"ok":true}' });
    const again = await post('/invocation/req-1/error', '{}');
    expect(again.status).toBe(403);
  });

  it('refuses a response before the runtime asked for the invocation', async () => {
    api = await RuntimeApi.start(invocation);
    expect((await post('/invocation/req-1/response', '{}')).status).toBe(400);
  });

  it('takes an invocation error as the runtime sends it, or from its error-type header when the body is no JSON', async () => {
    api = await RuntimeApi.start(invocation);
    await (await fetch(url('/invocation/next'))).text();
    await post('/invocation/req-1/error', 'it broke', {
      'Lambda-Runtime-Function-Error-Type': 'Runtime.Crash',
    });
    expect(await api.reported).toEqual({
      kind: 'error',
      error: { errorType: 'Runtime.Crash', errorMessage: 'it broke' },
    });
  });

  it('takes an init error', async () => {
    api = await RuntimeApi.start(invocation);
    const reported = await post(
      '/init/error',
      JSON.stringify({ errorMessage: 'no handler', errorType: 'Runtime.NoSuchHandler', stackTrace: [] }),
    );
    expect(reported.status).toBe(202);
    expect(await api.reported).toEqual({
      kind: 'init-error',
      error: { errorMessage: 'no handler', errorType: 'Runtime.NoSuchHandler', stackTrace: [] },
    });
  });

  it('answers an unknown path 404', async () => {
    api = await RuntimeApi.start(invocation);
    expect((await fetch(url('/nothing'))).status).toBe(404);
  });
});
