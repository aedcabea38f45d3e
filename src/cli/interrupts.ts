import { onOutputClosed } from './closed-output.js';

/** The abort reason of a run whose output lost its reader, as `interruptedError` names it. */
const CLOSED_OUTPUT = 'a closed output pipe (EPIPE)';

/** How long a force-quit waits for its lock release before exiting anyway. */
const FORCE_QUIT_GRACE_MS = 1_000;

export interface Interrupts {
  /** Aborted on the first SIGINT/SIGTERM: in-flight work finishes, nothing new starts. */
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Spec 003, "Signals": the first SIGINT or SIGTERM lets in-flight operations
 * finish, saves state, records the journal and releases the lock; a second one
 * force-quits with exit 130 (a deploy does not attempt a lock release then,
 * since it may hold locks on several stacks; destroy fires one through
 * `onForceQuit`). `absorb` (rollback) has no second-signal path: further
 * signals are ignored. An output that loses its reader (closed-output.ts) stops the run
 * as the first signal does.
 */
export function handleInterrupts(
  command: string,
  warn: (message: string) => void,
  options: { absorb?: boolean; onForceQuit?: () => Promise<unknown> } = {},
): Interrupts {
  const controller = new AbortController();
  // Only a signal counts as the first: a closed output (a parent's timeout drops the pipes
  // and sends SIGTERM) is no reason to force-quit on the signal that follows it.
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!signalled) {
      signalled = true;
      if (controller.signal.aborted) return;
      warn(
        `${signal} received: finishing the operations in flight, then saving state${command === 'deploy' ? ' and the rollback journal' : ''} and releasing the lock.${options.absorb ? '' : ' Send it again to quit at once.'}`,
      );
      controller.abort(signal);
      return;
    }
    if (options.absorb) return;
    process.stderr.write(`${signal} received again: quitting now (exit 130).\n`);
    if (!options.onForceQuit) {
      process.exit(130);
      return;
    }
    // Not awaited for the work in flight: only the release's own request gets a moment to leave.
    const quit = () => process.exit(130);
    void options.onForceQuit().then(quit, quit);
    setTimeout(quit, FORCE_QUIT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Nobody reads the run's output any more: stop it as the first SIGTERM does, never force-quit.
  const stopListening = onOutputClosed(() => {
    if (controller.signal.aborted) return;
    warn(
      `Output closed (EPIPE): finishing the operations in flight, then saving state and releasing the lock.`,
    );
    controller.abort(CLOSED_OUTPUT);
  });
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stopListening();
    },
  };
}
