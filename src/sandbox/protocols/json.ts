import { randomUUID } from 'node:crypto';
import { SandboxError } from '../errors.js';
import type { SandboxRequest, SandboxResponse } from '../request.js';
import type { Codec } from '../service-module.js';

export type JsonVersion = '1.0' | '1.1';

/**
 * The AWS JSON 1.0 / 1.1 protocol (Cloud Control, SSM, Logs, KMS, DynamoDB ...): a POST of
 * a JSON document, the operation in `X-Amz-Target: <Prefix>.<Operation>`, a JSON result.
 * Errors: `{"__type": code, "message": ...}` plus the code in `x-amzn-ErrorType`.
 */
export function jsonCodec(version: JsonVersion): Codec {
  const contentType = `application/x-amz-json-${version}`;
  return {
    protocol: 'json',
    renderError(error: SandboxError): SandboxResponse {
      const body = { __type: error.code, message: error.message, ...error.fields };
      return {
        status: error.status,
        headers: { ...error.headers, 'content-type': contentType, 'x-amzn-errortype': error.code },
        body: JSON.stringify(body),
      };
    },
    newRequestId: randomUUID,
    requestIdHeaders(requestId: string): Record<string, string> {
      return { 'x-amzn-requestid': requestId };
    },
  };
}

/** The operation named by `X-Amz-Target`, which must carry the service's prefix. */
export function jsonOperation(request: SandboxRequest, targetPrefix: string): string {
  const target = request.headers['x-amz-target'] ?? '';
  const dot = target.lastIndexOf('.');
  if (request.method !== 'POST' || dot < 0 || target.slice(0, dot) !== targetPrefix) {
    throw new SandboxError('UnknownOperationException', 'Unknown operation', 400);
  }
  return target.slice(dot + 1);
}

/** The request document; an empty body is `{}`. */
export function jsonInput(request: SandboxRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(request.body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Falls through to the same error AWS gives for any unreadable document.
  }
  throw new SandboxError(
    'SerializationException',
    'Start of structure or map found where not expected.',
    400,
  );
}

export function jsonResult(version: JsonVersion, output: unknown): SandboxResponse {
  return {
    status: 200,
    headers: { 'content-type': `application/x-amz-json-${version}` },
    body: JSON.stringify(output ?? {}),
  };
}

/** A string member of the input, or the ValidationException AWS answers with when it is absent. */
export function requiredString(
  input: Record<string, unknown>,
  name: string,
  code = 'ValidationException',
): string {
  const value = input[name];
  if (typeof value === 'string' && value !== '') return value;
  throw new SandboxError(
    code,
    `1 validation error detected: Value null at '${lowerFirst(name)}' failed to satisfy constraint: Member must not be null`,
    400,
  );
}

export function optionalString(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' ? value : undefined;
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}
