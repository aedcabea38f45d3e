// The deploy's ETA: the critical path of the DAG with each operation's expected time.
export {
  criticalPath,
  remainingMs,
  type CriticalPath,
  type EtaNode,
  type EtaProgress,
} from './critical-path.js';
export { durationKey, expectedDuration, pastDurations, type PastEvent } from './durations.js';
export { PHASE_BARRIER, scheduleNodes, type ScheduledOperation } from './schedule.js';
