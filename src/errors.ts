import type { ErrorCode } from './error-codes.js';

export type { ErrorCode } from './error-codes.js';

/**
 * Exit codes (ARCHITECTURE.md, invariant 5): 0 done; 1 failed; 2 done but something
 * needs a person; 130 forced quit.
 */
export type ExitCode = 0 | 1 | 2 | 130;

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
    this.exitCode = options.exitCode ?? 1;
  }
}

/** An error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isCdkdError(error: unknown): error is CdkdError {
  return error instanceof CdkdError;
}
