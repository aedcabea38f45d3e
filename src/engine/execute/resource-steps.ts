import type { PlannedOperation } from '../../plan/index.js';
import type { StackState } from '../../stack-state/index.js';
import type { EventSink, ResourceAction } from '../events.js';

/** How a planned operation ended, as a person follows it. */
export interface StepEnd {
  action: ResourceAction;
  status: 'succeeded' | 'skipped' | 'failed';
  message?: string;
  /** A failure's code: cdkd's, or the AWS error's. */
  errorCode?: string;
}

/**
 * Hears each planned operation begin and end: the unit a person follows. One planned operation
 * may carry several mutations (a replacement's create and its delete), which the mutation
 * observer (the journal, observer.ts) hears one by one; a person sees one row per resource.
 */
export interface StepObserver {
  started(op: PlannedOperation, action: ResourceAction, message?: string): void;
  ended(op: PlannedOperation, end: StepEnd): void;
}

/** The event sink as a step observer: a resource event per start and end, the end timed from the start. */
export function eventSteps(
  events: EventSink,
  state: Pick<StackState, 'ref' | 'record'>,
  now: () => number = Date.now,
): StepObserver {
  const physicalIdOf = (logicalId: string) => state.record(logicalId)?.physicalId;
  const startedAt = new Map<string, number>();
  const base = (op: PlannedOperation) => ({
    kind: 'resource' as const,
    stack: state.ref.stackName,
    logicalId: op.logicalId,
    type: op.type,
  });
  return {
    started(op, action, message) {
      startedAt.set(op.logicalId, now());
      events({
        ...base(op),
        action,
        status: 'started',
        physicalId: physicalIdOf(op.logicalId),
        ...(message ? { message } : {}),
      });
    },
    ended(op, { action, status, message, errorCode }) {
      const durationMs = now() - (startedAt.get(op.logicalId) ?? now());
      startedAt.delete(op.logicalId);
      events({
        ...base(op),
        action,
        status,
        // A failure names no physical id: what it made, if anything, the journal tells.
        ...(status === 'failed' ? {} : { physicalId: physicalIdOf(op.logicalId) }),
        ...(message ? { message } : {}),
        ...(errorCode ? { errorCode } : {}),
        durationMs,
      });
    },
  };
}
