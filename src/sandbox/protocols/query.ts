import { randomUUID } from 'node:crypto';
import { SandboxError } from '../errors.js';
import type { SandboxRequest, SandboxResponse } from '../request.js';
import type { Codec } from '../service-module.js';
import { el } from '../xml.js';

/**
 * The AWS query protocol (STS, IAM, SQS's legacy wire): form-encoded `Action=..&Version=..`
 * parameters in the body (or the query string of a GET), XML `<{Action}Response>` results.
 */
export const queryCodec: Codec = {
  protocol: 'query',
  renderError(error: SandboxError, request: SandboxRequest): SandboxResponse {
    const body = el('ErrorResponse', [
      el('Error', [el('Type', error.type), el('Code', error.code), el('Message', error.message)]),
      el('RequestId', request.requestId),
    ]);
    return { status: error.status, headers: { ...error.headers, 'content-type': 'text/xml' }, body };
  },
  newRequestId: randomUUID,
  requestIdHeaders(requestId: string): Record<string, string> {
    return { 'x-amzn-requestid': requestId };
  },
};

/** The request's parameters: form body for POST, query string otherwise. */
export function queryParams(request: SandboxRequest): URLSearchParams {
  if (request.method === 'POST') return new URLSearchParams(request.body.toString('utf8'));
  return request.query;
}

export function queryAction(request: SandboxRequest): string {
  const action = queryParams(request).get('Action');
  if (!action) throw new SandboxError('MissingAction', 'Missing Action', 400);
  return action;
}

/** `<{action}Response xmlns><{action}Result>result</..><ResponseMetadata><RequestId/>..` */
export function queryResult(
  action: string,
  xmlns: string,
  result: string[],
  request: SandboxRequest,
): SandboxResponse {
  const body = el(
    `${action}Response`,
    [el(`${action}Result`, result), el('ResponseMetadata', [el('RequestId', request.requestId)])],
    `xmlns="${xmlns}"`,
  );
  return { status: 200, headers: { 'content-type': 'text/xml' }, body };
}
