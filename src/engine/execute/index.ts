export { ResourceExecutor } from './resource-executor.js';
export { type Evaluation, type ExecutorServices } from './executor-services.js';
export {
  type InFlightFact,
  type OperationDraft,
  type OperationObserver,
  type OperationOutcome,
  policies,
} from './observer.js';
export { type StepEnd, type StepObserver } from './resource-steps.js';
