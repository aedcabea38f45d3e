import { CdkdError, isCdkdError, type ExitCode } from '../../errors.js';
import type { Session } from '../../toolkit/index.js';
import { onOutputClosed } from './closed-output.js';

/** The abort reason of a run whose output lost its reader, as `interruptedError` names it. */
const CLOSED_OUTPUT = 'a closed output pipe (EPIPE)';

/** How long a force-quit waits for its lock release before exiting anyway. */
const FORCE_QUIT_GRACE_MS = 1_000;

/** Every command that takes a stack's lock: each meets signals through `interruptible`. */
export type LockingCommand =
  | 'deploy'
  | 'undo'
  | 'destroy'
  | 'state destroy'
  | 'rollback'
  | 'rollback --drop-failed'
  | 'import'
  | 'export'
  | 'orphan'
  | 'state orphan'
  | 'drift --accept'
  | 'drift --revert'
  | 'scrub'
  | 'state refresh-observed';

/** What SIGINT / SIGTERM do to a command. */
export interface SignalRule {
  /**
   * The first signal: `finish` lets the operations in flight end and saves what they did;
   * `stop` lets the call in flight end and writes nothing more. Both release the lock.
   */
  first: 'finish' | 'stop';
  /** The second: quit at once, quit after firing a release of the locks held, or nothing. */
  second: 'quit' | 'release-and-quit' | 'absorb';
  /** The exit code of a run the first signal stopped. */
  exitCode: ExitCode;
}

/**
 * Spec 003, "Signals", for deploy, destroy, state destroy and rollback: a deploy does not
 * release on a forced quit (it may hold several stacks' locks; `undo` is a deploy), destroy fires a release,
 * rollback absorbs further signals. Every other lock-taking command changes state without
 * deploying: its first signal stops it with exit 130, its second releases and quits.
 */
export function signalRule(command: LockingCommand): SignalRule {
  switch (command) {
    case 'deploy':
    case 'undo':
      return { first: 'finish', second: 'quit', exitCode: 1 };
    case 'destroy':
    case 'state destroy':
      return { first: 'finish', second: 'release-and-quit', exitCode: 1 };
    case 'rollback':
      return { first: 'finish', second: 'absorb', exitCode: 1 };
    case 'drift --revert':
    case 'scrub':
      return { first: 'finish', second: 'release-and-quit', exitCode: 130 };
    default:
      return { first: 'stop', second: 'release-and-quit', exitCode: 130 };
  }
}

export interface Interrupts {
  /** Aborted on the first SIGINT/SIGTERM: in-flight work finishes, nothing new starts. */
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Handles SIGINT and SIGTERM alike for `command` by its rule: the first aborts `signal`
 * (saying what happens next), a second force-quits with exit 130 (firing `releaseHeld`
 * first where the rule says so) or is absorbed. An output that loses its reader
 * (closed-output.ts) stops the run as the first signal does.
 */
export function handleInterrupts(
  command: LockingCommand,
  warn: (message: string) => void,
  releaseHeld?: () => Promise<unknown>,
): Interrupts {
  const rule = signalRule(command);
  const controller = new AbortController();
  // Only a signal counts as the first: a closed output (a parent's timeout drops the pipes
  // and sends SIGTERM) is no reason to force-quit on the signal that follows it.
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!signalled) {
      signalled = true;
      if (controller.signal.aborted) return;
      const again = rule.second === 'absorb' ? '' : ' Send it again to quit at once.';
      warn(`${signal} received: ${firstSignalPlan(command, rule)}${again}`);
      controller.abort(signal);
      return;
    }
    if (rule.second === 'absorb') return;
    process.stderr.write(`${signal} received again: quitting now (exit 130).\n`);
    if (rule.second === 'quit' || !releaseHeld) {
      process.exit(130);
      return;
    }
    // Not awaited for the work in flight: only the release's own request gets a moment to leave.
    const quit = () => process.exit(130);
    void releaseHeld().then(quit, quit);
    setTimeout(quit, FORCE_QUIT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Nobody reads the run's output any more: stop it as the first SIGTERM does, never force-quit.
  const stopListening = onOutputClosed(() => {
    if (controller.signal.aborted) return;
    warn(`Output closed (EPIPE): ${firstSignalPlan(command, rule)}`);
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

function firstSignalPlan(command: LockingCommand, rule: SignalRule): string {
  if (rule.first === 'stop') {
    return 'stopping once the call in flight returns; nothing more is written, and the lock is released.';
  }
  return `finishing the operations in flight, then saving state${command === 'deploy' ? ' and the rollback journal' : ''} and releasing the lock.`;
}

/**
 * The one interrupt path of every command that takes a lock: runs `run` with the signal
 * its first SIGINT/SIGTERM aborts, a second one force-quitting as `signalRule` says (a
 * release of the session's held locks fired first), and a run the first signal stopped
 * exiting with the rule's code.
 */
export async function interruptible<T>(
  command: LockingCommand,
  options: { session: Session; warn: (message: string) => void },
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const interrupts = handleInterrupts(command, options.warn, async () =>
    (await options.session.stateBackend()).locks.releaseHeld(),
  );
  try {
    return await run(interrupts.signal);
  } catch (error) {
    throw withInterruptedExit(error, signalRule(command).exitCode);
  } finally {
    interrupts.dispose();
  }
}

function withInterruptedExit(error: unknown, exitCode: ExitCode): unknown {
  if (!isCdkdError(error) || error.code !== 'INTERRUPTED' || error.exitCode === exitCode) return error;
  return new CdkdError(error.code, error.message, {
    ...(error.hint ? { hint: error.hint } : {}),
    cause: error.cause,
    exitCode,
  });
}
