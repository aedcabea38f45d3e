import type { SandboxResponse } from '../../../request.js';

export const API_VERSION_HEADER = { 'docker-distribution-api-version': 'registry/2.0' };

/** The distribution spec's error codes, with the status each is answered with. */
const STATUS = {
  BLOB_UNKNOWN: 404,
  BLOB_UPLOAD_INVALID: 400,
  BLOB_UPLOAD_UNKNOWN: 404,
  DIGEST_INVALID: 400,
  MANIFEST_BLOB_UNKNOWN: 400,
  MANIFEST_INVALID: 400,
  MANIFEST_UNKNOWN: 404,
  NAME_INVALID: 400,
  NAME_UNKNOWN: 404,
  SIZE_INVALID: 400,
  TAG_INVALID: 400,
  UNAUTHORIZED: 401,
  DENIED: 403,
  UNSUPPORTED: 405,
} as const;

export type RegistryErrorCode = keyof typeof STATUS;

/** A registry protocol error: `{"errors":[{code, message, detail}]}` with its status. */
export class RegistryError extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    readonly detail?: unknown,
    readonly status: number = STATUS[code],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  response(): SandboxResponse {
    return {
      status: this.status,
      headers: { ...API_VERSION_HEADER, ...this.headers, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        errors: [
          {
            code: this.code,
            message: this.message,
            ...(this.detail !== undefined ? { detail: this.detail } : {}),
          },
        ],
      }),
    };
  }
}

export function registryResponse(
  status: number,
  headers: Record<string, string>,
  body?: Buffer | string,
): SandboxResponse {
  return { status, headers: { ...API_VERSION_HEADER, ...headers }, ...(body !== undefined ? { body } : {}) };
}

export function jsonResponse(value: unknown, headers: Record<string, string> = {}): SandboxResponse {
  return registryResponse(
    200,
    { ...headers, 'content-type': 'application/json; charset=utf-8' },
    JSON.stringify(value),
  );
}
