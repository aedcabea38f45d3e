import type { HttpRequest } from './types.js';
import type { InvocationResult } from './types.js';
import type { HttpAnswer } from './types.js';
import {
  forwardingHeaders,
  groupValues,
  isTextContentType,
  joinedHeaders,
  queryPairs,
  requestCookies,
  requestTime,
} from './request-parts.js';

/** Where a request arrived, as a 2.0 event's requestContext names it. */
export interface V2Target {
  accountId: string;
  apiId: string;
  domainName: string;
  domainPrefix: string;
  /** `$default` for a function URL and an HTTP API's default route, else `METHOD /path`. */
  routeKey: string;
  stage: string;
  /** The path as the event reports it (with a named stage's prefix). */
  rawPath: string;
  pathParameters?: Record<string, string>;
  stageVariables?: Record<string, string>;
  /** `requestContext.authorizer` (jwt, lambda or iam), when one ran. */
  authorizer?: Record<string, unknown>;
  requestId: string;
  epochMs: number;
}

/**
 * The event payload format 2.0 hands a function (HTTP APIs and function URLs): headers
 * lower-cased with repeats joined by commas, cookies apart, repeated query parameters joined
 * by commas, a body base64-encoded unless its content type is text; absent parts left out.
 */
export function v2Event(request: HttpRequest, target: V2Target): Record<string, unknown> {
  const cookies = requestCookies(request);
  const query = groupValues(queryPairs(request.rawQuery));
  const headers = { ...joinedHeaders(request), ...forwardingHeaders(request, target.epochMs) };
  const hasBody = request.body.length > 0;
  const text = isTextContentType(request.headers['content-type']);
  return {
    version: '2.0',
    routeKey: target.routeKey,
    rawPath: target.rawPath,
    rawQueryString: request.rawQuery,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length > 0
      ? {
          queryStringParameters: Object.fromEntries(
            Object.entries(query).map(([name, values]) => [name, values.join(',')]),
          ),
        }
      : {}),
    requestContext: {
      accountId: target.accountId,
      apiId: target.apiId,
      ...(target.authorizer ? { authorizer: target.authorizer } : {}),
      domainName: target.domainName,
      domainPrefix: target.domainPrefix,
      http: {
        method: request.method,
        path: target.rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: request.headers['user-agent'] ?? '',
      },
      requestId: target.requestId,
      routeKey: target.routeKey,
      stage: target.stage,
      time: requestTime(target.epochMs),
      timeEpoch: target.epochMs,
    },
    ...(hasBody ? { body: text ? request.body.toString('utf8') : request.body.toString('base64') } : {}),
    ...(target.pathParameters && Object.keys(target.pathParameters).length > 0
      ? { pathParameters: target.pathParameters }
      : {}),
    isBase64Encoded: hasBody && !text,
    ...(target.stageVariables && Object.keys(target.stageVariables).length > 0
      ? { stageVariables: target.stageVariables }
      : {}),
  };
}

/**
 * A function's answer to a 2.0 event as the HTTP response: `statusCode`, `headers`,
 * `cookies` (one `set-cookie` each), `body` (decoded when `isBase64Encoded`); an answer
 * without a `statusCode` is a 200 JSON body as the function returned it. `failure` is the
 * front door's own answer for a function error or a malformed result.
 */
export function v2Response(result: InvocationResult, failure: () => HttpAnswer): HttpAnswer {
  const output = functionOutput(result);
  if (output === FAILED) return failure();
  if (!isRecord(output) || output.statusCode === undefined) {
    return { status: 200, headers: { 'content-type': 'application/json' }, body: result.payload };
  }
  const status = Number(output.statusCode);
  if (!Number.isInteger(status) || status < 100 || status > 599) return failure();
  const headers: Record<string, string> = {};
  if (isRecord(output.headers)) {
    for (const [name, value] of Object.entries(output.headers)) {
      if (value !== null && value !== undefined) headers[name.toLowerCase()] = String(value);
    }
  }
  headers['content-type'] ??= 'application/json';
  const cookies = Array.isArray(output.cookies) ? output.cookies.map(String) : [];
  return {
    status,
    headers,
    ...(cookies.length > 0 ? { headerLists: { 'set-cookie': cookies } } : {}),
    body: responseBody(output.body, output.isBase64Encoded === true),
  };
}

export const FAILED = Symbol('failed');

/** What the function returned, or FAILED when it failed or returned something that is not JSON. */
export function functionOutput(result: InvocationResult): unknown {
  if (result.functionError) return FAILED;
  try {
    return JSON.parse(result.payload) as unknown;
  } catch {
    return FAILED;
  }
}

/** A function's `body`: text, or bytes when it said the text is base64. */
export function responseBody(body: unknown, base64: boolean): Buffer | string {
  if (body === undefined || body === null) return '';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return base64 ? Buffer.from(text, 'base64') : text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
