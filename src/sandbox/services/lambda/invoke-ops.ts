import { SandboxError } from '../../errors.js';
import type { SandboxRequest, SandboxResponse } from '../../request.js';
import type { AsyncInvocations, QueuedInvocation } from './async-invocations.js';
import { requireFunction, type LambdaCall } from './call.js';
import { lambdaErrors } from './lambda-errors.js';
import type { FunctionRecord } from './model.js';
import { logGroupName, writeFunctionLog } from './runtime/function-logs.js';
import type { FunctionRunner, InvokeTarget } from './runtime/function-runner.js';

/** Lambda's payload limits: 6 MB for a synchronous request, 1 MB for an Event. */
const SYNC_LIMIT = 6 * 1024 * 1024;
const ASYNC_LIMIT = 1024 * 1024;

export interface InvokeDeps {
  runner: FunctionRunner;
  queue: AsyncInvocations;
}

/**
 * Invoke: RequestResponse runs the handler and answers its result (or its error, with
 * `X-Amz-Function-Error: Unhandled`); Event is accepted (202) and runs in the background;
 * DryRun only checks the call (204).
 */
export async function invoke(
  call: LambdaCall,
  request: SandboxRequest,
  deps: InvokeDeps,
): Promise<SandboxResponse> {
  const { record, qualifier } = requireFunction(call);
  if (call.now < record.activeAt) throw lambdaErrors.pending();
  const target = resolveTarget(record, qualifier);
  const type = request.headers['x-amz-invocation-type'] ?? 'RequestResponse';
  const payload = eventPayload(request.body, type === 'Event' ? ASYNC_LIMIT : SYNC_LIMIT);
  deps.runner.check(target);
  const clientContext = request.headers['x-amz-client-context'];
  switch (type) {
    case 'DryRun':
      return { status: 204, headers: {} };
    case 'Event':
      await deps.queue.enqueue({
        requestId: request.requestId,
        region: record.region,
        functionName: record.name,
        ...(qualifier !== undefined ? { qualifier } : {}),
        payload,
        ...(clientContext ? { clientContext } : {}),
      });
      return { status: 202, headers: {} };
    case 'RequestResponse': {
      const result = await deps.runner.invoke(target, payload, {
        requestId: request.requestId,
        ...(clientContext ? { clientContext } : {}),
      });
      return {
        status: 200,
        headers: {
          'content-type': 'application/json',
          'x-amz-executed-version': target.version,
          ...(result.functionError ? { 'x-amz-function-error': result.functionError } : {}),
          ...(request.headers['x-amz-log-type'] === 'Tail' ? { 'x-amz-log-result': result.logResult } : {}),
        },
        body: result.payload,
      };
    }
    default:
      throw lambdaErrors.validation(
        'invocationType',
        type,
        'Member must satisfy enum value set: [Event, RequestResponse, DryRun]',
      );
  }
}

/** Runs one accepted Event invocation; what goes wrong goes to the function's log. */
export async function runQueued(
  call: LambdaCall,
  invocation: QueuedInvocation,
  runner: FunctionRunner,
): Promise<void> {
  const record = call.store.function(invocation.region, invocation.functionName);
  // The function was deleted after the call was accepted: Lambda drops the event too.
  if (!record) return;
  try {
    const target = resolveTarget(record, invocation.qualifier);
    await runner.invoke(target, invocation.payload, {
      requestId: invocation.requestId,
      ...(invocation.clientContext ? { clientContext: invocation.clientContext } : {}),
    });
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const group = logGroupName(record.name, record.latest.logging);
    await writeFunctionLog(call.context, record.region, group, 'sandbox-async-invocations', [
      {
        timestamp: Date.now(),
        message: `RequestId: ${invocation.requestId} ${error.code}: ${error.message}`,
      },
    ]);
  }
}

/** `$LATEST`, a version number or an alias (weights aside: the alias's main version). */
export function resolveTarget(record: FunctionRecord, qualifier: string | undefined): InvokeTarget {
  const invokedFunctionArn = qualifier === undefined ? record.arn : `${record.arn}:${qualifier}`;
  const alias = record.aliases.find((candidate) => candidate.name === qualifier);
  const version = alias ? alias.functionVersion : (qualifier ?? '$LATEST');
  if (version === '$LATEST') return { record, config: record.latest, version, invokedFunctionArn };
  const published = record.versions.find((candidate) => candidate.version === version);
  if (!published) throw lambdaErrors.functionNotFound(invokedFunctionArn);
  return { record, config: published.config, version, invokedFunctionArn };
}

function eventPayload(body: Buffer, limit: number): string {
  if (body.length > limit) {
    throw new SandboxError(
      'RequestTooLargeException',
      `Request must be smaller than ${limit} bytes for the InvokeFunction operation`,
      413,
    );
  }
  const text = body.length === 0 ? '{}' : body.toString('utf8');
  try {
    JSON.parse(text);
  } catch (error) {
    throw new SandboxError(
      'InvalidRequestContentException',
      `Could not parse request body into json: ${(error as Error).message}`,
      400,
    );
  }
  return text;
}
