import type { HttpRequest, Invoke, ResourceModel } from '../types.js';
import { isRecord } from '../payload-v2.js';
import { httpResponses, unsupported } from '../gateway-responses.js';
import { callAuthorizer, identityValue } from './invoke-authorizer.js';
import { evaluatePolicy, isPolicyDocument } from './policy.js';
import type { Authorization } from './rest-authorizer.js';
import type { AuthorizerResultCache } from './result-cache.js';

export interface HttpAuthorizerInput {
  request: HttpRequest;
  /** `arn:aws:execute-api:{region}:{account}:{api}/{stage}/{METHOD}/{path}` */
  routeArn: string;
  stageVariables: Record<string, string>;
  /** The request's event in the authorizer's payload format (without the authorizer's own fields). */
  requestEvent: (format: '1.0' | '2.0') => Record<string, unknown>;
}

/** A kept answer: simple (`isAuthorized`) or an IAM policy, with the context either carries. */
export type HttpAuthorizerAnswer =
  | { simple: true; isAuthorized: boolean; context: Record<string, unknown> }
  | {
      simple: false;
      policyDocument: unknown;
      principalId: string;
      context: Record<string, unknown>;
    };

/**
 * An HTTP API's Lambda (REQUEST) authorizer: a missing identity source is a 401 without a
 * call; the function gets payload format 1.0 or 2.0; a simple response (`isAuthorized`) or
 * an IAM policy decides, cached per identity for the TTL; the context reaches the
 * integration as `requestContext.authorizer.lambda`.
 */
export async function authorizeHttpLambda(
  invoke: Invoke,
  cache: AuthorizerResultCache<HttpAuthorizerAnswer>,
  authorizer: ResourceModel,
  input: HttpAuthorizerInput,
): Promise<Authorization> {
  if (authorizer.AuthorizerType !== 'REQUEST') {
    return { kind: 'refused', response: unsupported(`${String(authorizer.AuthorizerType)} authorizers`) };
  }
  const sources = Array.isArray(authorizer.IdentitySource) ? authorizer.IdentitySource.map(String) : [];
  const values = sources.map((source) => identityValue(source, input.request, input.stageVariables));
  if (values.some((value) => value === undefined))
    return { kind: 'refused', response: httpResponses.unauthorized() };
  const identity = values.map((value) => value!);
  const ttl =
    typeof authorizer.AuthorizerResultTtlInSeconds === 'number' ? authorizer.AuthorizerResultTtlInSeconds : 0;
  const format = authorizer.AuthorizerPayloadFormatVersion === '1.0' ? '1.0' : '2.0';
  const simple = format === '2.0' && authorizer.EnableSimpleResponses === true;
  const authorizerId = String(authorizer.AuthorizerId ?? '');
  const now = Date.now();
  let answer = ttl > 0 && identity.length > 0 ? cache.get(authorizerId, identity, now) : undefined;
  if (!answer) {
    const base = input.requestEvent(format);
    const event =
      format === '2.0'
        ? {
            version: '2.0',
            type: 'REQUEST',
            routeArn: input.routeArn,
            identitySource: identity,
            ...withoutVersion(base),
          }
        : {
            version: '1.0',
            type: 'REQUEST',
            methodArn: input.routeArn,
            identitySource: identity.join(','),
            authorizationToken: identity[0] ?? null,
            ...withoutVersion(base),
          };
    const call = await callAuthorizer(invoke, authorizer.AuthorizerUri, input.stageVariables, event);
    if (call.kind === 'unauthorized') return { kind: 'refused', response: httpResponses.unauthorized() };
    const parsed = call.kind === 'output' ? readAnswer(call.output, simple) : undefined;
    if (!parsed) return { kind: 'refused', response: httpResponses.internalError() };
    answer = parsed;
    if (identity.length > 0) cache.put(authorizerId, identity, answer, ttl, now);
  }
  const allowed = answer.simple
    ? answer.isAuthorized
    : evaluatePolicy(answer.policyDocument, input.routeArn) === 'allow';
  if (!allowed) return { kind: 'refused', response: httpResponses.forbidden() };
  const context = answer.simple ? answer.context : { ...answer.context, principalId: answer.principalId };
  return { kind: 'allowed', authorizer: { lambda: context } };
}

function readAnswer(output: Record<string, unknown>, simple: boolean): HttpAuthorizerAnswer | undefined {
  const context = output.context ?? {};
  if (!isRecord(context)) return undefined;
  if (simple) {
    return typeof output.isAuthorized === 'boolean'
      ? { simple, isAuthorized: output.isAuthorized, context }
      : undefined;
  }
  if (output.principalId === undefined || !isPolicyDocument(output.policyDocument)) return undefined;
  return { simple, policyDocument: output.policyDocument, principalId: String(output.principalId), context };
}

function withoutVersion(event: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(event).filter(([name]) => name !== 'version'));
}
