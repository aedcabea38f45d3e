export { type MadeContext, madeStep } from './made-step.js';
export {
  describeStep,
  leftCommand,
  type NestedScope,
  planRollback,
  type RollbackOptions,
} from './plan-rollback.js';
export {
  type Located,
  makesInFlight,
  reconcileInFlight,
  type ReconcileOptions,
  recordItMade,
} from './reconcile.js';
export { type ReplayServices, replayStep, type StepOutcome } from './replay-step.js';
export {
  remainingSegment,
  restoreGeneration,
  rollbackEvent,
  type RollbackPath,
  type RollbackReport,
  runRollback,
} from './run-rollback.js';
