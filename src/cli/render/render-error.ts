import { isCdkdError } from '../../errors.js';

/** Lines to print for a failed command: what happened, what to do, and (verbose) why. */
export function renderError(error: unknown, verbose: boolean): string[] {
  if (isCdkdError(error)) {
    const lines = [`Error [${error.code}]: ${error.message}`];
    if (error.hint) lines.push(`  ${error.hint}`);
    if (verbose && error.cause !== undefined) lines.push(...describeCause(error.cause));
    return lines;
  }
  const message = error instanceof Error ? error.message : String(error);
  const lines = [
    `Error: ${message}`,
    '  This is unexpected; re-run with --verbose and report it if it persists.',
  ];
  if (verbose && error instanceof Error && error.stack) lines.push(error.stack);
  return lines;
}

function describeCause(cause: unknown): string[] {
  if (cause instanceof Error) {
    return [`  Cause: ${cause.name}: ${cause.message}`, ...(cause.stack ? [cause.stack] : [])];
  }
  return [`  Cause: ${String(cause)}`];
}
