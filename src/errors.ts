import { ERROR_CODES, isErrorCode, type ErrorCode, type ExitCode } from './error-codes.js';

export type { ErrorCode, ExitCode } from './error-codes.js';

export interface CdkdErrorOptions {
  /** One line saying what to do next, with the flag or command. */
  hint?: string;
  cause?: unknown;
  exitCode?: ExitCode;
}

/**
 * The one error type every layer raises for an expected failure. `code` is the
 * spec's code (e.g. `NAMED_CREATE_COLLISION`), one of the catalog in error-codes.ts; the CLI renders message + hint,
 * and the cause only under --verbose.
 */
export class CdkdError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;

  constructor(code: ErrorCode, message: string, options: CdkdErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CdkdError';
    this.code = code;
    this.hint = options.hint;
    // A code cast past the compiler still leaves by 1 rather than crashing here.
    this.exitCode = options.exitCode ?? (isErrorCode(code) ? ERROR_CODES[code].exitCode : 1);
  }
}

/** An error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isCdkdError(error: unknown): error is CdkdError {
  return error instanceof CdkdError;
}
