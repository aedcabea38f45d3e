import type { DeployPhase, EventSink } from '../events.js';

/** Reports each phase of a stack's deploy with the time since the previous one ended. */
export function phaseTimer(events: EventSink, stack: string): (phase: DeployPhase) => void {
  let last = Date.now();
  return (phase) => {
    const now = Date.now();
    events({ kind: 'phase', stack, phase, durationMs: now - last });
    last = now;
  };
}
