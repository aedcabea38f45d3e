import { expect } from 'vitest';
import { awsErrorCode } from '../../src/aws/error-class.js';
import { ResourceMadeError } from '../../src/providers/provider.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { admin } from '../sandbox/helpers.js';

/**
 * Fails the next call of `service:operation` once, with a code no retry (the SDK's or
 * cdkd's) picks up, so a create's follow-up fails at once.
 */
export async function failNext(
  sandbox: Sandbox,
  service: string,
  operation: string,
  options: { errorCode?: string; nth?: number; count?: number } = {},
): Promise<void> {
  const { status } = await admin(sandbox, 'POST', 'faults', {
    service,
    operation,
    errorCode: options.errorCode ?? 'ValidationException',
    httpStatus: 400,
    message: `injected ${operation} failure`,
    ...(options.nth !== undefined ? { nth: options.nth } : {}),
    ...(options.count !== undefined ? { count: options.count } : {}),
  });
  expect(status).toBe(201);
}

export async function clearFaults(sandbox: Sandbox): Promise<void> {
  await admin(sandbox, 'DELETE', 'faults');
}

/** The ResourceMadeError `promise` rejects with; it carries the injected failure, under its own AWS code. */
export async function madeError(promise: Promise<unknown>, errorCode = 'ValidationException') {
  const error = await promise.then(
    () => {
      throw new Error('expected the create to fail, but it succeeded');
    },
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(ResourceMadeError);
  const made = error as ResourceMadeError;
  expect(awsErrorCode(made.failure)).toBe(errorCode);
  // Retry classification reads the wrapper as it reads the failure.
  expect(awsErrorCode(made)).toBe(errorCode);
  return made;
}
