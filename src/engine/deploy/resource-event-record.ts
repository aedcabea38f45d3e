import type { StackEvent, EventLog } from '../../state/index.js';
import type { DeployEvent, EventSink } from '../events.js';
import type { Retry } from '../planning/index.js';

type ResourceEvent = Extract<DeployEvent, { kind: 'resource' }>;

const STATUS_PREFIX: Partial<Record<ResourceEvent['action'], string>> = {
  create: 'CREATE',
  update: 'UPDATE',
  replace: 'UPDATE',
  delete: 'DELETE',
};

/**
 * The stored event for a resource operation that ended, with when it started, so a deploy's
 * timeline can be drawn from state alone (`cdkd ui`, `cdkd events --html`). Starts, skips
 * and no-ops are not stored: only work that was done or failed.
 */
export function resourceOperationEvent(
  event: ResourceEvent,
  now: Date,
  retryMs = 0,
): Omit<StackEvent, 'timestamp' | 'runId'> | undefined {
  const prefix = STATUS_PREFIX[event.action];
  if (!prefix || (event.status !== 'succeeded' && event.status !== 'failed')) return undefined;
  return {
    status: `${prefix}_${event.status === 'succeeded' ? 'COMPLETE' : 'FAILED'}`,
    logicalId: event.logicalId,
    resourceType: event.type,
    ...(event.physicalId ? { physicalId: event.physicalId } : {}),
    ...(event.status === 'failed' && event.message ? { reason: event.message } : {}),
    action: event.action,
    startedAt: new Date(now.getTime() - (event.durationMs ?? 0)).toISOString(),
    ...(retryMs > 0 ? { retryMs } : {}),
  };
}

/**
 * Time each resource spent retrying: from a retried call's start to the start of its last
 * attempt (failed attempts and the waits between them), summed per logical id.
 */
export class RetryTimes {
  private readonly spent = new Map<string, number>();

  wrap(retry: Retry): Retry {
    return async (label, call) => {
      const started = Date.now();
      let lastAttempt = started;
      try {
        return await retry(label, () => {
          lastAttempt = Date.now();
          return call();
        });
      } finally {
        if (lastAttempt > started)
          this.spent.set(label, (this.spent.get(label) ?? 0) + lastAttempt - started);
      }
    };
  }

  /** The time `logicalId` spent retrying so far, forgotten once read. */
  take(logicalId: string): number {
    const spent = this.spent.get(logicalId) ?? 0;
    this.spent.delete(logicalId);
    return spent;
  }
}

/** `sink`, also recording each ended resource operation in `log`, with its time spent retrying. */
export function recordingResourceEvents(sink: EventSink, log: EventLog, retries: RetryTimes): EventSink {
  return (event) => {
    if (event.kind === 'resource') {
      const retryMs = event.status === 'started' ? 0 : retries.take(event.logicalId);
      const stored = resourceOperationEvent(event, new Date(), retryMs);
      if (stored) log.record(stored);
    }
    sink(event);
  };
}
