import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_PREFIX, handleAdmin, type AdminDeps } from './admin/admin-api.js';
import { internalError, SandboxError } from './errors.js';
import { queryCodec } from './protocols/query.js';
import { codecForUnserved } from './protocols/unserved.js';
import {
  credentialScope,
  requestAccount,
  unwrapBody,
  type SandboxRequest,
  type SandboxResponse,
} from './request.js';
import type { FaultEffect } from './admin/faults.js';
import type { Codec, ServiceModule } from './service-module.js';
import type { IngressRequest } from './ingress.js';

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Header names and values as sent (Node's rawHeaders), for what keeps the client's casing. */
  rawHeaders?: readonly string[];
  remoteAddress?: string;
}

/**
 * One request through the sandbox: admin routes, else the service named in the SigV4
 * credential scope → operation name → call counter → IAM check of an assumed role's call
 * (`--enforce-iam`) → latency and faults → the module.
 * Every failure leaves as an AWS error in the service's protocol.
 */
export async function dispatch(raw: RawRequest, deps: AdminDeps): Promise<SandboxResponse> {
  const url = new URL(raw.url, 'http://sandbox.invalid');
  if (url.pathname.startsWith(ADMIN_PREFIX)) {
    const { status, body } = await handleAdmin(raw.method, url.pathname, raw.body, deps, url.searchParams);
    return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }
  const scope = credentialScope(raw.headers, url.searchParams);
  const ingress = ingressRequest(raw, scope?.service);
  for (const candidate of deps.modules.values()) {
    const operation = candidate.ingress?.claim(ingress);
    if (operation !== undefined) return serveIngress(candidate, ingress, operation, deps);
  }
  const module = scope && deps.modules.get(scope.service);
  const codec: Codec = module?.codec ?? (scope ? codecForUnserved(scope.service, raw) : queryCodec);
  const request: SandboxRequest = {
    method: raw.method,
    path: rawPath(raw.url),
    query: url.searchParams,
    headers: raw.headers,
    body: raw.body,
    service: scope?.service ?? '',
    region: scope?.region ?? deps.region,
    accessKeyId: scope?.accessKeyId ?? '',
    accountId: requestAccount(scope?.accessKeyId ?? '', deps.accountId),
    requestId: codec.newRequestId(),
  };
  let response: SandboxResponse;
  const started = performance.now();
  const arrivedAt = new Date(deps.clock.now()).toISOString();
  let recorded: { operation: string; fault: FaultEffect } | undefined;
  try {
    if (!scope) {
      throw new SandboxError('MissingAuthenticationToken', 'Request is missing Authentication Token', 403);
    }
    if (!module) {
      throw new SandboxError(
        'UnknownService',
        `The cdkd sandbox does not serve the service '${scope.service}' (${raw.method} ${url.pathname}).`,
        400,
      );
    }
    Object.assign(request, unwrapBody(raw.headers, raw.body));
    const operation = module.operation(request);
    deps.calls.record(module.name, operation, module.isMutating(operation));
    const refusal = deps.iam.refusal(request, module, operation);
    if (refusal) {
      // Refused before any fault applies, as IAM answers before the service acts; still a recent call.
      recorded = { operation, fault: { latencyMs: 0, answerLatencyMs: 0 } };
      throw refusal;
    }
    const fault = deps.faults.apply(module.name, operation, request.path);
    recorded = { operation, fault };
    const delayMs = deps.latency.forOperation(module.name, operation) + fault.latencyMs;
    if (delayMs > 0) await sleep(delayMs);
    if (fault.failure !== undefined && !fault.afterApply) return failed(fault.failure);
    response = await module.handle(request, operation);
    if (fault.answerLatencyMs > 0) await sleep(fault.answerLatencyMs);
    if (fault.failure !== undefined) return failed(fault.failure);
  } catch (error) {
    response = codec.renderError(toSandboxError(error), request);
  }
  response.headers = { ...response.headers, ...codec.requestIdHeaders(request.requestId) };
  return remembered(response);

  /** An injected failure in place of the answer: the service's error, or no answer at all. */
  function failed(failure: SandboxError | 'drop'): SandboxResponse {
    if (failure === 'drop') return remembered({ status: 0, drop: true });
    const response = codec.renderError(failure, request);
    response.headers = { ...response.headers, ...codec.requestIdHeaders(request.requestId) };
    return remembered(response);
  }

  /** Puts an operation's call in the recent-calls ring (requests that named none are not calls). */
  function remembered(answer: SandboxResponse): SandboxResponse {
    if (recorded && module) {
      const fault = faultShown(recorded.fault);
      deps.recent.record({
        at: arrivedAt,
        service: module.name,
        operation: recorded.operation,
        latencyMs: Math.round(performance.now() - started),
        status: answer.status,
        ...(fault ? { fault } : {}),
      });
    }
    return answer;
  }
}

/** What a fault did to a call, in a word: its error, a dropped connection, or the delay it added. */
function faultShown(effect: FaultEffect): string | undefined {
  if (effect.failure === 'drop') return 'dropped connection';
  if (effect.failure) return effect.failure.code;
  const added = effect.latencyMs + effect.answerLatencyMs;
  return added > 0 ? `+${added} ms` : undefined;
}

/**
 * A request to an API or function URL: counted like a call, answered by the module. A bug
 * answers as API Gateway's and Lambda's front doors do, 500 with a JSON message.
 */
async function serveIngress(
  module: ServiceModule,
  request: IngressRequest,
  operation: string,
  deps: AdminDeps,
): Promise<SandboxResponse> {
  deps.calls.record(module.name, operation, module.ingress!.mutating?.(operation) ?? false);
  const started = performance.now();
  const at = new Date(deps.clock.now()).toISOString();
  let response: SandboxResponse;
  try {
    response = await module.ingress!.serve(request, operation);
  } catch (error) {
    toSandboxError(error);
    response = {
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Internal server error' }),
    };
  }
  const latencyMs = Math.round(performance.now() - started);
  deps.recent.record({ at, service: module.name, operation, latencyMs, status: response.status });
  return response;
}

function ingressRequest(raw: RawRequest, signedFor: string | undefined): IngressRequest {
  const rawHeaders = raw.rawHeaders ?? Object.entries(raw.headers).flat();
  const headerList: Array<[string, string]> = [];
  for (let at = 0; at + 1 < rawHeaders.length; at += 2)
    headerList.push([rawHeaders[at]!, rawHeaders[at + 1]!]);
  const queryAt = raw.url.indexOf('?');
  return {
    method: raw.method,
    path: rawPath(raw.url),
    rawQuery: queryAt < 0 ? '' : (raw.url.slice(queryAt + 1).split('#', 1)[0] ?? ''),
    headers: raw.headers,
    headerList,
    body: raw.body,
    host: (raw.headers.host ?? '').toLowerCase().replace(/:\d+$/, ''),
    sourceIp: (raw.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
    signedFor,
  };
}

function toSandboxError(error: unknown): SandboxError {
  if (error instanceof SandboxError) return error;
  // A bug in the sandbox, not an AWS behaviour: say so where the operator will see it.
  process.stderr.write(`cdkd sandbox: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
  return internalError();
}

/**
 * The request's path as sent, without the query: unlike URL parsing, it keeps `.` and `..`
 * segments, which S3 treats as literal parts of an object key.
 */
function rawPath(url: string): string {
  const withoutOrigin = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const path = withoutOrigin.split(/[?#]/, 1)[0] ?? '';
  return path === '' ? '/' : path;
}
