import type { HttpAnswer, HttpRequest, Invoke, ResourceModel } from '../types.js';
import { isRecord } from '../payload-v2.js';
import { restResponses, unsupported } from '../gateway-responses.js';
import { callAuthorizer, identityValue } from './invoke-authorizer.js';
import { evaluatePolicy, isPolicyDocument } from './policy.js';
import type { AuthorizerResultCache } from './result-cache.js';

/** What an authorizer answered that API Gateway keeps: its principal, policy and context. */
export interface PolicyOutput {
  principalId: string;
  policyDocument: unknown;
  context: Record<string, unknown>;
}

export type Authorization =
  { kind: 'allowed'; authorizer: Record<string, unknown> } | { kind: 'refused'; response: HttpAnswer };

export interface RestAuthorizerInput {
  request: HttpRequest;
  /** `arn:aws:execute-api:{region}:{account}:{api}/{stage}/{METHOD}/{path}` */
  methodArn: string;
  stageVariables: Record<string, string>;
  /** The request's 1.0 event, which a REQUEST authorizer receives most of. */
  requestEvent: () => Record<string, unknown>;
}

const DEFAULT_TTL_SECONDS = 300;

/**
 * A REST API's Lambda authorizer (TOKEN or REQUEST): a missing identity source is a 401
 * without calling it; its policy is cached per identity for the TTL and evaluated against
 * each request's method ARN (explicit deny, not authorized, or allowed with its context
 * as `requestContext.authorizer`).
 */
export async function authorizeRest(
  invoke: Invoke,
  cache: AuthorizerResultCache<PolicyOutput>,
  authorizer: ResourceModel,
  input: RestAuthorizerInput,
): Promise<Authorization> {
  const type = String(authorizer.Type ?? '');
  if (type !== 'TOKEN' && type !== 'REQUEST') {
    return { kind: 'refused', response: unsupported(`${type} authorizers`) };
  }
  const ttl =
    typeof authorizer.AuthorizerResultTtlInSeconds === 'number'
      ? authorizer.AuthorizerResultTtlInSeconds
      : DEFAULT_TTL_SECONDS;
  const sources = String(
    authorizer.IdentitySource ?? (type === 'TOKEN' ? 'method.request.header.Authorization' : ''),
  )
    .split(',')
    .filter((source) => source.trim() !== '');
  const values = sources.map((source) => identityValue(source, input.request, input.stageVariables));
  // A REQUEST authorizer without caching may run without its identity sources.
  if ((type === 'TOKEN' || ttl > 0) && values.some((value) => value === undefined)) {
    return { kind: 'refused', response: restResponses.unauthorized() };
  }
  const identity = values.map((value) => value ?? '');
  const token = identity[0] ?? '';
  if (
    type === 'TOKEN' &&
    typeof authorizer.IdentityValidationExpression === 'string' &&
    authorizer.IdentityValidationExpression !== '' &&
    !new RegExp(`^(?:${authorizer.IdentityValidationExpression})$`).test(token)
  ) {
    return { kind: 'refused', response: restResponses.unauthorized() };
  }
  const authorizerId = String(authorizer.AuthorizerId ?? '');
  const started = Date.now();
  let output = cache.get(authorizerId, identity, started);
  if (!output) {
    const event =
      type === 'TOKEN'
        ? { type: 'TOKEN', methodArn: input.methodArn, authorizationToken: token }
        : requestAuthorizerEvent(input.methodArn, input.requestEvent());
    const call = await callAuthorizer(invoke, authorizer.AuthorizerUri, input.stageVariables, event);
    if (call.kind === 'unauthorized') return { kind: 'refused', response: restResponses.unauthorized() };
    const parsed = call.kind === 'output' ? policyOutput(call.output) : undefined;
    if (!parsed) return { kind: 'refused', response: restResponses.authorizerConfiguration() };
    output = parsed;
    cache.put(authorizerId, identity, output, ttl, started);
  }
  switch (evaluatePolicy(output.policyDocument, input.methodArn)) {
    case 'deny':
      return { kind: 'refused', response: restResponses.explicitDeny() };
    case 'implicit-deny':
      return { kind: 'refused', response: restResponses.notAuthorized() };
    case 'allow':
      return {
        kind: 'allowed',
        authorizer: {
          ...Object.fromEntries(Object.entries(output.context).map(([key, value]) => [key, String(value)])),
          principalId: output.principalId,
          integrationLatency: Date.now() - started,
        },
      };
  }
}

/** A REQUEST authorizer's event: the method ARN and the request as the 1.0 event holds it. */
function requestAuthorizerEvent(methodArn: string, event: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'REQUEST',
    methodArn,
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers,
    multiValueHeaders: event.multiValueHeaders,
    queryStringParameters: event.queryStringParameters,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters,
    pathParameters: event.pathParameters,
    stageVariables: event.stageVariables,
    requestContext: event.requestContext,
  };
}

/**
 * The authorizer's answer if API Gateway accepts it: a principal, a policy document, and a
 * context of strings, numbers and booleans only.
 */
export function policyOutput(output: Record<string, unknown>): PolicyOutput | undefined {
  if (output.principalId === undefined || !isPolicyDocument(output.policyDocument)) return undefined;
  const context = output.context ?? {};
  if (!isRecord(context)) return undefined;
  if (Object.values(context).some((value) => typeof value === 'object' && value !== null)) return undefined;
  return { principalId: String(output.principalId), policyDocument: output.policyDocument, context };
}
