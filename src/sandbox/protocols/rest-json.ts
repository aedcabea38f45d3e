import { randomUUID } from 'node:crypto';
import { SandboxError } from '../errors.js';
import type { SandboxRequest, SandboxResponse } from '../request.js';
import type { Codec } from '../service-module.js';

/**
 * The AWS REST-JSON protocol (Lambda, API Gateway ...): the operation is named by method
 * and path (`POST /2015-03-31/functions`), members travel in path labels, the query string
 * and a JSON body. Errors: the code in `x-amzn-ErrorType`, and a JSON body
 * `{"Type": "User" | "Service", "message": ...}`.
 */
export const restJsonCodec: Codec = {
  protocol: 'rest-json',
  renderError(error: SandboxError): SandboxResponse {
    const body = {
      Type: error.type === 'Sender' ? 'User' : 'Service',
      message: error.message,
      ...error.fields,
    };
    return {
      status: error.status,
      headers: { ...error.headers, 'content-type': 'application/json', 'x-amzn-errortype': error.code },
      body: JSON.stringify(body),
    };
  },
  newRequestId: randomUUID,
  requestIdHeaders(requestId: string): Record<string, string> {
    return { 'x-amzn-requestid': requestId };
  },
};

/** One operation's HTTP binding: `{Label}` matches one path segment, `{Label+}` the rest. */
export interface RestRoute {
  method: string;
  path: string;
  operation: string;
}

export interface RouteMatch {
  operation: string;
  /** Path labels, percent-decoded. */
  labels: Record<string, string>;
}

/** The route a request matches, or undefined (the service answers UnknownOperation). */
export function matchRoute(routes: readonly RestRoute[], request: SandboxRequest): RouteMatch | undefined {
  const segments = request.path.split('/').filter((segment) => segment !== '');
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const labels = matchSegments(
      route.path.split('/').filter((part) => part !== ''),
      segments,
    );
    if (labels) return { operation: route.operation, labels };
  }
  return undefined;
}

function matchSegments(pattern: string[], segments: string[]): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const part = pattern[index]!;
    const greedy = /^\{(.+)\+\}$/.exec(part);
    if (greedy) {
      if (index !== pattern.length - 1 || segments.length <= index) return undefined;
      labels[greedy[1]!] = segments.slice(index).map(decodeURIComponent).join('/');
      return labels;
    }
    const segment = segments[index];
    if (segment === undefined) return undefined;
    const label = /^\{(.+)\}$/.exec(part);
    if (label) labels[label[1]!] = decodeURIComponent(segment);
    else if (part !== segment) return undefined;
  }
  return pattern.length === segments.length ? labels : undefined;
}

/** The JSON body; an empty body is `{}`. */
export function restJsonInput(request: SandboxRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(request.body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Falls through to the error AWS gives for any unreadable body.
  }
  throw new SandboxError('InvalidRequestContentException', 'Could not parse request body into json.', 400);
}

/** A JSON result with the operation's success status (200, 201, 202); 204 has no body. */
export function restJsonResult(status: number, output?: unknown): SandboxResponse {
  if (status === 204 || output === undefined) return { status, headers: {} };
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(output),
  };
}
