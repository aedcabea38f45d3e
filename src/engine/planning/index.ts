export { deployableResources, planningProperties, topLevelProperty } from './desired-resources.js';
export { cloudFormationExportSource, importedNames } from './cloudformation-exports.js';
export { refusingRegionlessSecrets, sendableProperties } from './dynamic-references.js';
export { refuseChangedExportsInUse } from './export-guards.js';
export { type LiveAttributes, liveAttributesFor } from './live-attributes.js';
export {
  declaredExportValues,
  type EvaluatedOutputs,
  evaluateOutputs,
  type FailedOutput,
  type OutputChange,
  outputChanges,
} from './outputs.js';
export { type RoutedProperties, routeEvaluated, routeRecreate } from './plan-routing.js';
export { type PlannedStack, planStack, prepareRequest } from './plan-stack.js';
export { plannedExportValues } from './planned-exports.js';
export { recreateOrder } from './recreate-order.js';
export { reviewValues } from './review-values.js';
export { holdsPendingValue, stateResolver } from './state-resolver.js';
export { writeOnlyOf } from './write-only-paths.js';
export {
  createCollisionError,
  idempotentCreateError,
  isOldResource,
  lookUpName,
  type NameCheck,
  ownHolderOf,
  recordedNameCheck,
  replacementOrder,
  type Retry,
} from './name-check.js';
