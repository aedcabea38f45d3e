import type { AwsClients } from '../../src/aws/client-factory.js';
import type { Clock } from '../../src/providers/clock.js';
import type {
  HandlerTransport,
  ResponseRead,
  ResponseStore,
} from '../../src/providers/custom-resource/index.js';
import type { ServiceTarget } from '../../src/providers/custom-resource/service-token.js';
import type { ProviderContext } from '../../src/providers/provider.js';

/** A clock whose sleeps only move its time on. */
export function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    async sleep(ms, signal) {
      if (signal?.aborted) throw new Error('aborted');
      slept.push(ms);
      now += ms;
    },
  };
}

/** What a fake handler answers: a body to PUT, or nothing (it never answers). */
export type FakeHandler = (event: Record<string, unknown>) => string | undefined;

/**
 * The state bucket's response objects and a handler behind a transport, in memory: `send`
 * runs the handler at once and writes its answer where the pre-signed URL points.
 */
export function fakeCustomResourceWorld(handler: FakeHandler) {
  const objects = new Map<string, Uint8Array | 'placeholder'>();
  const events: Record<string, unknown>[] = [];
  const calls: string[] = [];
  const faults = { prepare: [] as unknown[], send: [] as unknown[] };
  const responses: ResponseStore = {
    async prepare(requestId) {
      calls.push(`prepare ${requestId}`);
      const fault = faults.prepare.shift();
      if (fault) throw fault;
      objects.set(requestId, 'placeholder');
      return { key: `responses/${requestId}`, url: `https://bucket.example/responses/${requestId}?signed` };
    },
    async read(requestId): Promise<ResponseRead> {
      const object = objects.get(requestId);
      if (object === undefined) return { kind: 'missing' };
      return object === 'placeholder' ? { kind: 'pending' } : { kind: 'answered', body: object };
    },
    async discard(requestId) {
      objects.delete(requestId);
    },
  };
  const transport: HandlerTransport = {
    async ready(target: ServiceTarget) {
      calls.push(`ready ${target.kind}`);
    },
    async send(target: ServiceTarget, payload: string) {
      calls.push(`send ${target.kind}`);
      const fault = faults.send.shift();
      if (fault) throw fault;
      const event = JSON.parse(payload) as Record<string, unknown>;
      events.push(event);
      const body = handler(event);
      if (body !== undefined) objects.set(String(event.RequestId), Buffer.from(body, 'utf8'));
    },
  };
  const context = (signal?: AbortSignal): ProviderContext => ({
    clients: {} as AwsClients,
    accountId: '123456789012',
    region: 'us-east-1',
    stackName: 'Stack',
    customResources: {
      responses,
      stackId:
        'arn:aws:cloudformation:us-east-1:123456789012:stack/Stack/11111111-2222-3333-4444-555555555555',
      ...(signal ? { signal } : {}),
    },
  });
  return { objects, events, calls, faults, responses, transport, context };
}

/** A CloudFormation response body answering `event`. */
export function answer(event: Record<string, unknown>, fields: Record<string, unknown>): string {
  return JSON.stringify({
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    ...fields,
  });
}

/** An SDK error as the service would answer it. */
export function serviceError(name: string, status: number, message = name): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });
}
