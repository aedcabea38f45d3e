import { CdkdError } from './errors.js';

/**
 * The error of a run a SIGINT/SIGTERM stopped (spec 003, "Signals"): exit 1, saying it was
 * interrupted and when. The signal's reason is the signal's name (cli/interrupts.ts).
 */
export function interruptedError(signal: AbortSignal, when: string): CdkdError {
  const name = typeof signal.reason === 'string' ? signal.reason : 'a signal';
  return new CdkdError('INTERRUPTED', `Interrupted by ${name} ${when}.`, {
    hint: 'Nothing new was started after the signal; run the command again to carry on.',
  });
}

export function throwIfInterrupted(signal: AbortSignal | undefined, when: string): void {
  if (signal?.aborted) throw interruptedError(signal, when);
}

/**
 * `work` that changes nothing (credentials, synthesis): an interrupt rejects at once instead
 * of waiting for it, since there is nothing in flight to finish.
 */
export function unlessInterrupted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  when: string,
): Promise<T> {
  if (!signal) return work;
  throwIfInterrupted(signal, when);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(interruptedError(signal, when));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
