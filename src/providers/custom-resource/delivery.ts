import { createHash } from 'node:crypto';
import { CdkdError } from '../../errors.js';
import type { Clock } from '../clock.js';
import { OutcomeUnknownError } from '../provider.js';
import { retryClassOf } from '../retry-class.js';
import {
  delayAt,
  PLACEHOLDER_DELAYS_MS,
  POLL_DELAYS_MS,
  PRE_DELIVERY_DELAYS_MS,
  REINVOCATION_DELAYS_MS,
} from './budgets.js';
import type { HandlerTransport, ResponseStore } from './ports.js';
import { buildRequest, type RequestInput } from './request.js';
import { readResponse, type HandlerAnswer } from './response.js';
import type { ServiceTarget } from './service-token.js';

export interface Delivery {
  target: ServiceTarget;
  /** Everything of the request but its id and response URL, which each attempt makes anew. */
  request: Omit<RequestInput, 'requestId' | 'responseUrl'>;
  /** The first attempt's RequestId; a re-invocation's is derived from it (`requestIdFor`). */
  requestId: string;
  timeoutSeconds: number;
  /** How many times a handler's IAM-propagation failure is re-invoked. */
  reinvocations: number;
  signal?: AbortSignal;
}

export interface DeliveryPorts {
  transport: HandlerTransport;
  responses: ResponseStore;
  clock: Clock;
}

/**
 * Thrown when the deploy's signal stops the wait for a response the handler may still write:
 * the request is in flight, and the journal keeps it so `cdkd rollback` reads the answer.
 */
export class ResponseAwaited extends OutcomeUnknownError {
  constructor(readonly requestId: string) {
    super(`stopped waiting for the handler's response to request ${requestId}; cdkd rollback reads it`);
    this.name = 'ResponseAwaited';
  }
}

/**
 * Sends one custom resource request and returns the handler's answer, on spec 003's two
 * internal budgets: a request the service refused before any handler ran is sent again,
 * and an answer that failed on IAM propagation re-invokes the handler a few times; the
 * placeholder write is retried too. Nothing is sent again once an invoke was accepted.
 */
export async function deliver(delivery: Delivery, ports: DeliveryPorts): Promise<HandlerAnswer> {
  for (let attempt = 0; ; attempt += 1) {
    const requestId = requestIdFor(delivery.requestId, attempt);
    const answer = await deliverOnce(delivery, ports, requestId);
    const delay = delayAt(REINVOCATION_DELAYS_MS, Math.min(attempt, REINVOCATION_DELAYS_MS.length - 1));
    if (answer.status === 'SUCCESS' || attempt >= delivery.reinvocations || !propagating(answer.reason)) {
      return answer;
    }
    await ports.clock.sleep(delay!, delivery.signal);
  }
}

async function deliverOnce(
  delivery: Delivery,
  ports: DeliveryPorts,
  requestId: string,
): Promise<HandlerAnswer> {
  const { transport, responses, clock } = ports;
  const slot = await retried(PLACEHOLDER_DELAYS_MS, clock, delivery.signal, () =>
    responses.prepare(requestId, delivery.timeoutSeconds + 300),
  );
  try {
    const payload = JSON.stringify(buildRequest({ ...delivery.request, requestId, responseUrl: slot.url }));
    // The readiness waiter has its own deadline and is never replayed (spec 003).
    await transport.ready(delivery.target, delivery.signal);
    await retried(PRE_DELIVERY_DELAYS_MS, clock, delivery.signal, () =>
      transport.send(delivery.target, payload, delivery.signal),
    );
    const body = await awaitAnswer(
      responses,
      requestId,
      {
        logicalId: delivery.request.logicalId,
        timeoutSeconds: delivery.timeoutSeconds,
        ...(delivery.signal ? { signal: delivery.signal } : {}),
      },
      clock,
    );
    const answer = readResponse(body, { logicalId: delivery.request.logicalId, requestId });
    await responses.discard(requestId).catch(() => undefined);
    return answer;
  } catch (error) {
    // An unknown outcome (a stopped wait) keeps the placeholder: the journal holds the request,
    // and `cdkd rollback` reads the answer there. Any other failure (refused invoke, timeout,
    // unreadable answer) leaves nothing anyone reads again; a late answer writes its own object.
    if (!(error instanceof OutcomeUnknownError)) await responses.discard(requestId).catch(() => undefined);
    throw error;
  }
}

/** Polls the request's key until the handler's body replaces the placeholder, up to ServiceTimeout. */
export async function awaitAnswer(
  responses: ResponseStore,
  requestId: string,
  delivery: { logicalId: string; timeoutSeconds: number; signal?: AbortSignal },
  clock: Clock,
): Promise<Uint8Array> {
  const deadline = clock.now() + delivery.timeoutSeconds * 1000;
  for (let poll = 0; ; poll += 1) {
    if (delivery.signal?.aborted) throw new ResponseAwaited(requestId);
    const read = await responses.read(requestId);
    if (read.kind === 'answered') return read.body;
    const delay = POLL_DELAYS_MS[Math.min(poll, POLL_DELAYS_MS.length - 1)]!;
    if (clock.now() + delay > deadline) {
      throw new CdkdError(
        'CUSTOM_RESOURCE_TIMEOUT',
        `${delivery.logicalId}: the handler did not answer request ${requestId} within ${delivery.timeoutSeconds} s (ServiceTimeout).`,
        {
          hint: "Read the handler's log (for a Lambda handler, the log group /aws/lambda/<function name>); raise ServiceTimeout if it needs longer.",
        },
      );
    }
    try {
      await clock.sleep(delay, delivery.signal);
    } catch (error) {
      if (delivery.signal?.aborted) throw new ResponseAwaited(requestId);
      throw error;
    }
  }
}

/**
 * The RequestId of attempt `attempt`: the first is the journaled one, so a rollback finds its
 * response; a re-invocation's is a UUID derived from it, found the same way.
 */
export function requestIdFor(first: string, attempt: number): string {
  if (attempt === 0) return first;
  const hex = createHash('sha256').update(`${first}#${attempt}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function propagating(reason: string): boolean {
  return retryClassOf(new Error(reason)) === 'iam-propagation';
}

/**
 * Runs `call`, retrying on `schedule` only an error the service answered with a retryable
 * class (throttled, 5xx, permission not yet propagated) or a connection never made: either
 * way the request provably did not run.
 */
async function retried<T>(
  schedule: readonly number[],
  clock: Clock,
  signal: AbortSignal | undefined,
  call: () => Promise<T>,
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await call();
    } catch (error) {
      const delay = delayAt(schedule, retry);
      if (delay === undefined || signal?.aborted || !refusedBeforeRunning(error)) throw error;
      await clock.sleep(delay, signal);
    }
  }
}

function refusedBeforeRunning(error: unknown): boolean {
  if (retryClassOf(error) === undefined) return false;
  const answered =
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== undefined;
  return answered || (error as { code?: unknown }).code === 'ECONNREFUSED';
}
