import { awsErrorCode } from '../../aws/error-class.js';
import type { ProviderKind } from '../../providers/index.js';

export interface UpdateFailure {
  /** The layer the refused update went to. */
  provisionedBy: ProviderKind;
  error: unknown;
  /** The --replace flag. */
  replace: boolean;
}

/** Cloud Control's answer for a type whose schema has no update handler. */
export const UNSUPPORTED_ACTION = 'UnsupportedActionException';
/** A Cloud Control handler's refusal to change a property in place. */
const NOT_UPDATABLE = 'NotUpdatable';

/**
 * Spec 002's update-failure fallback: an in-place update the provider refused, with nothing
 * applied, is re-created instead — automatically when Cloud Control answers UnsupportedAction,
 * and under --replace when its handler answers NotUpdatable. Anything else fails the update.
 */
export function updateFallback(failure: UpdateFailure): 'recreate' | 'fail' {
  if (failure.provisionedBy !== 'cc-api') return 'fail';
  const code = awsErrorCode(failure.error);
  if (code === UNSUPPORTED_ACTION) return 'recreate';
  return code === NOT_UPDATABLE && failure.replace ? 'recreate' : 'fail';
}
