import { SandboxError } from '../../../errors.js';
import { isRecord } from '../../../http-events/payload-v2.js';
import { queryPairs } from '../../../http-events/request-parts.js';
import type { IngressRequest } from '../../../ingress.js';
import type { LambdaInvocationResult } from '../../../ports/index.js';
import { lambdaArnOf } from '../integrations/lambda-target.js';

export type Invoke = (functionArn: string, payload: string) => Promise<LambdaInvocationResult>;

/** How a Lambda authorizer's invocation ended. */
export type AuthorizerCall =
  | { kind: 'output'; output: Record<string, unknown> }
  /** The function failed with the message `Unauthorized`: the caller gets a 401. */
  | { kind: 'unauthorized' }
  /** Anything else (a missing function, another error, an answer that is not an object): a 500. */
  | { kind: 'error' };

export async function callAuthorizer(
  invoke: Invoke,
  uri: unknown,
  stageVariables: Record<string, string>,
  event: Record<string, unknown>,
): Promise<AuthorizerCall> {
  const arn = typeof uri === 'string' ? lambdaArnOf(uri, stageVariables) : undefined;
  if (!arn) return { kind: 'error' };
  let result: LambdaInvocationResult;
  try {
    result = await invoke(arn, JSON.stringify(event));
  } catch (error) {
    if (error instanceof SandboxError) return { kind: 'error' };
    throw error;
  }
  let output: unknown;
  try {
    output = JSON.parse(result.payload);
  } catch {
    return { kind: 'error' };
  }
  if (result.functionError) {
    return isRecord(output) && output.errorMessage === 'Unauthorized'
      ? { kind: 'unauthorized' }
      : { kind: 'error' };
  }
  return isRecord(output) ? { kind: 'output', output } : { kind: 'error' };
}

/**
 * One identity source's value, or undefined when the request lacks it. REST APIs name them
 * `method.request.header.X`, `method.request.querystring.X`, `stageVariables.X`; HTTP APIs
 * `$request.header.X`, `$request.querystring.X`, `$stageVariables.X`.
 */
export function identityValue(
  source: string,
  request: IngressRequest,
  stageVariables: Record<string, string>,
): string | undefined {
  const trimmed = source.trim();
  const header = /^(?:method\.request\.(?:multivalue)?header|\$request\.header)\.(.+)$/i.exec(trimmed)?.[1];
  if (header !== undefined) return nonEmpty(request.headers[header.toLowerCase()]);
  const query = /^(?:method\.request\.(?:multivalue)?querystring|\$request\.querystring)\.(.+)$/i.exec(
    trimmed,
  )?.[1];
  if (query !== undefined) {
    const values = queryPairs(request.rawQuery)
      .filter(([name]) => name === query)
      .map(([, value]) => value);
    return nonEmpty(values.join(','));
  }
  const variable = /^\$?stageVariables\.(.+)$/.exec(trimmed)?.[1];
  if (variable !== undefined) return nonEmpty(stageVariables[variable]);
  return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
