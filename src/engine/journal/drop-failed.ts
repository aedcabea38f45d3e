import { CdkdError } from '../../errors.js';
import { confirmPlan } from '../../messages/index.js';
import { throwIfInterrupted } from '../../interrupted.js';
import { decideDropFailed } from '../../rollback-decisions/index.js';
import { RETRY_SCHEDULE } from '../../state/lock-schedule.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';

export interface DropFailedRequest {
  stack: StackIdentity;
  /** The first SIGINT/SIGTERM: nothing more is read or written. */
  signal?: AbortSignal;
}

export interface DropFailedResult {
  stackName: string;
  found: boolean;
  lines: string[];
  confirmed: boolean;
}

/**
 * `cdkd rollback --drop-failed`: discards the failed-only segments a clean automatic
 * rollback leaves (spec 003, "The journal's lifetime"), once confirmed, so a resource whose
 * failed update you accept as it is no longer keeps the journal. Nothing is sent to AWS.
 * The lock is retried as a rollback's is.
 */
export async function dropFailedSegments(
  engine: EngineContext,
  request: DropFailedRequest,
): Promise<DropFailedResult> {
  const { stack, signal } = request;
  const ref = { stackName: stack.stateName, region: stack.region };
  const lock = { operation: 'rollback', schedule: RETRY_SCHEDULE, ...(signal ? { signal } : {}) };
  return engine.backend.locks.withLock(ref, lock, async () => {
    const read = await engine.backend.journals.read(ref);
    throwIfInterrupted(signal, 'after reading the journal; nothing was dropped');
    const decision = decideDropFailed(read?.document.segments ?? []);
    const result = { stackName: stack.stackName, found: decision.kind !== 'nothing', lines: [] as string[] };
    if (decision.kind === 'nothing') return { ...result, confirmed: false };
    if (decision.kind === 'refuse') {
      throw new CdkdError(
        'ROLLBACK_DROP_REFUSED',
        `Cannot drop the failed operations of stack ${stack.stackName}: ${decision.reason}.`,
        { hint: decision.hint },
      );
    }
    // Asked through the IO host; a "no" stops before anything is written.
    const agreed = await confirmPlan(engine.io, engine.command, {
      heading: 'Failed operations to drop:',
      lines: decision.lines,
      question: 'Drop them from the rollback journal?',
    });
    if (!agreed) return { ...result, lines: decision.lines, confirmed: false };
    throwIfInterrupted(signal, 'before the journal was changed; nothing was dropped');
    await engine.backend.journals.remove(ref);
    return { ...result, lines: decision.lines, confirmed: true };
  });
}
