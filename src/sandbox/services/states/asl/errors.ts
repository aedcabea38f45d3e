/** A failure as Amazon States Language names it: an error name and a cause. */
export class StatesError extends Error {
  constructor(
    readonly error: string,
    override readonly cause: string,
  ) {
    super(`${error}: ${cause}`);
    this.name = 'StatesError';
  }
}

/** Errors States.ALL does not match (AWS: they end the execution whatever the Retry or Catch). */
const UNCATCHABLE = new Set(['States.Runtime', 'States.DataLimitExceeded']);

/** Whether a Retrier's or Catcher's ErrorEquals names the error. */
export function errorMatches(errorEquals: readonly string[], error: string): boolean {
  return errorEquals.some(
    (name) =>
      name === error ||
      (name === 'States.ALL' && !UNCATCHABLE.has(error)) ||
      (name === 'States.TaskFailed' && !UNCATCHABLE.has(error) && error !== 'States.Timeout'),
  );
}

export const runtimeError = (cause: string): StatesError => new StatesError('States.Runtime', cause);
