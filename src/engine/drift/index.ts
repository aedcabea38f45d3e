export {
  type DriftMode,
  type DriftOptions,
  type DriftResult,
  driftStack,
  type ResourceDrift,
} from './drift-stack.js';
export { refreshObserved, type RefreshResult } from './refresh-observed.js';
