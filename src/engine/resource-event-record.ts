import type { StackEvent } from '../state/documents/events-document.js';
import type { EventLog } from '../state/event-log.js';
import type { DeployEvent, EventSink } from './events.js';

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
  };
}

/** `sink`, also recording each ended resource operation in `log`. */
export function recordingResourceEvents(sink: EventSink, log: EventLog): EventSink {
  return (event) => {
    if (event.kind === 'resource') {
      const stored = resourceOperationEvent(event, new Date());
      if (stored) log.record(stored);
    }
    sink(event);
  };
}
