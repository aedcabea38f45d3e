import type { HttpRequest } from './types.js';
import type { InvocationResult } from './types.js';
import type { HttpAnswer } from './types.js';
import { FAILED, functionOutput, isRecord, responseBody } from './payload-v2.js';
import {
  groupValues,
  lastValues,
  matchesMediaTypes,
  orNull,
  queryPairs,
  requestTime,
  traceId,
} from './request-parts.js';

/** The caller as `requestContext.identity` reports it (IAM authorization fills it in). */
export interface CallerIdentity {
  accessKey: string | null;
  accountId: string | null;
  caller: string | null;
  user: string | null;
  userArn: string | null;
}

export const ANONYMOUS: CallerIdentity = {
  accessKey: null,
  accountId: null,
  caller: null,
  user: null,
  userArn: null,
};

/** Where a request arrived, as a 1.0 event (REST APIs; HTTP APIs' format 1.0) reports it. */
export interface V1Target {
  /** An HTTP API's 1.0 events carry `version`; a REST API's do not. */
  version?: '1.0';
  accountId: string;
  apiId: string;
  domainName: string;
  domainPrefix: string;
  stage: string;
  /** The resource's path template (`/items/{proxy+}`). */
  resource: string;
  /** The request's path below the stage. */
  path: string;
  /** The path with the stage (`requestContext.path`). */
  stagePath: string;
  resourceId: string | null;
  deploymentId?: string;
  pathParameters: Record<string, string>;
  stageVariables: Record<string, string>;
  identity: CallerIdentity;
  authorizer?: Record<string, unknown>;
  /** The body goes base64-encoded (its content type is one of the API's binary media types). */
  binaryBody: boolean;
  requestId: string;
  extendedRequestId: string;
  epochMs: number;
}

/**
 * The Lambda proxy event of payload format 1.0: headers with the client's casing (the last
 * value of a repeated one) and all their values in `multiValueHeaders`, the same for the
 * query string; maps with nothing in them are null.
 */
export function v1Event(request: HttpRequest, target: V1Target): Record<string, unknown> {
  const headerPairs: Array<readonly [string, string]> = [
    ...request.headerList,
    ['X-Amzn-Trace-Id', traceId(target.epochMs)],
    ['X-Forwarded-For', request.sourceIp],
    ['X-Forwarded-Port', /:(\d+)$/.exec(request.headers.host ?? '')?.[1] ?? '80'],
    ['X-Forwarded-Proto', 'http'],
  ];
  const headers = groupValues(headerPairs);
  const query = groupValues(queryPairs(request.rawQuery));
  const hasBody = request.body.length > 0;
  return {
    ...(target.version ? { version: target.version } : {}),
    resource: target.resource,
    path: target.path,
    httpMethod: request.method,
    headers: lastValues(headers),
    multiValueHeaders: orNull(headers),
    queryStringParameters: lastValues(query),
    multiValueQueryStringParameters: orNull(query),
    pathParameters: orNull(target.pathParameters),
    stageVariables: orNull(target.stageVariables),
    requestContext: {
      resourceId: target.resourceId,
      resourcePath: target.resource,
      httpMethod: request.method,
      extendedRequestId: target.extendedRequestId,
      requestTime: requestTime(target.epochMs),
      path: target.stagePath,
      accountId: target.accountId,
      protocol: 'HTTP/1.1',
      stage: target.stage,
      domainPrefix: target.domainPrefix,
      requestTimeEpoch: target.epochMs,
      requestId: target.requestId,
      identity: {
        cognitoIdentityPoolId: null,
        accountId: target.identity.accountId,
        cognitoIdentityId: null,
        caller: target.identity.caller,
        sourceIp: request.sourceIp,
        principalOrgId: null,
        accessKey: target.identity.accessKey,
        cognitoAuthenticationType: null,
        cognitoAuthenticationProvider: null,
        userArn: target.identity.userArn,
        userAgent: request.headers['user-agent'] ?? null,
        user: target.identity.user,
      },
      domainName: target.domainName,
      ...(target.deploymentId ? { deploymentId: target.deploymentId } : {}),
      apiId: target.apiId,
      ...(target.authorizer ? { authorizer: target.authorizer } : {}),
    },
    body: hasBody
      ? target.binaryBody
        ? request.body.toString('base64')
        : request.body.toString('utf8')
      : null,
    isBase64Encoded: hasBody && target.binaryBody,
  };
}

/** How a REST API turns a base64 body back into bytes: its binary media types and the request's Accept. */
export interface BinarySupport {
  binaryMediaTypes: readonly string[];
  accept: string | undefined;
}

/**
 * A function's answer to a 1.0 event as the HTTP response: `statusCode` (required: a result
 * without one is malformed), `headers` and `multiValueHeaders` merged (the multi-value ones
 * win for a name in both), `body`; a base64 body is decoded only where the request's Accept
 * header names one of the API's binary media types (else the client gets the base64 text).
 */
export function v1Response(
  result: InvocationResult,
  binary: BinarySupport,
  failure: () => HttpAnswer,
): HttpAnswer {
  const output = functionOutput(result);
  if (output === FAILED || !isRecord(output)) return failure();
  const status = Number(output.statusCode);
  if (!Number.isInteger(status) || status < 100 || status > 599) return failure();
  const lists: Record<string, string[]> = {};
  if (isRecord(output.headers)) {
    for (const [name, value] of Object.entries(output.headers)) {
      if (value !== null && value !== undefined) lists[name.toLowerCase()] = [String(value)];
    }
  }
  if (isRecord(output.multiValueHeaders)) {
    for (const [name, values] of Object.entries(output.multiValueHeaders)) {
      if (Array.isArray(values)) lists[name.toLowerCase()] = values.map(String);
    }
  }
  lists['content-type'] ??= ['application/json'];
  const decode =
    output.isBase64Encoded === true &&
    (binary.accept ?? '').split(',').some((type) => matchesMediaTypes(type, binary.binaryMediaTypes));
  const headers: Record<string, string> = {};
  const headerLists: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(lists)) {
    if (values.length === 1) headers[name] = values[0]!;
    else headerLists[name] = values;
  }
  return {
    status,
    headers,
    ...(Object.keys(headerLists).length > 0 ? { headerLists } : {}),
    body: responseBody(output.body, decode),
  };
}
