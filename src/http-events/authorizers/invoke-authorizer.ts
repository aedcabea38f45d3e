import { isRecord } from '../payload-v2.js';
import { queryPairs } from '../request-parts.js';
import type { HttpRequest, InvocationResult, Invoke } from '../types.js';
import { lambdaArnOf } from '../lambda-target.js';

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
  // A function that cannot run answers as a failed invocation (the caller's invoke says so).
  const result: InvocationResult = await invoke(arn, JSON.stringify(event));
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
  request: HttpRequest,
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
