export { buildPlan, registryTypesToRead, unchangedByHash } from './build-plan.js';
export { parseRegistrySchema } from './registry-schema.js';
export type { RegistryAnswer, RegistrySchema } from './registry-schema.js';
export { canonicalJson, hasLegacyEmptyHash, propertyHash } from './property-hash.js';
export { KNOWN_AFTER_DEPLOY } from './known-after-deploy.js';
export { isUnresolved, UNRESOLVED_PROPERTIES } from './unresolved.js';
export { renderPlanJson, renderPlanText, summarizePlan } from './render-plan.js';
export type { PlanSummary, RenderOptions } from './render-plan.js';
export {
  checkStatefulReplacements,
  emptinessProbeTargets,
  statefulOutcome,
} from './guards/stateful-replace.js';
export type { StatefulOutcome, StatefulVerdict } from './guards/stateful-replace.js';
export { decideNameCollision } from './guards/name-collision.js';
export { refuseUnsupportedTypes } from './guards/unsupported-types.js';
export type { CollisionDecision, CollisionInput } from './guards/name-collision.js';
export type * from './types.js';
export {
  dataDetail,
  needsDataLossConfirmation,
  recreateRowLines,
  renderDataLossPlan,
} from './render-data-loss.js';
export type { RecreateRow } from './render-data-loss.js';
export { applyRecreateVia, RECREATE_FLAGS, routeLabel } from './recreate-via.js';
export type { RecreateLayer } from './recreate-via.js';
export { movingExports } from './moving-exports.js';
export type { DeclaredExport, ImportersInRun, MovingExport } from './moving-exports.js';
export { operationMoves } from './operation-moves.js';
export * from './review/index.js';
