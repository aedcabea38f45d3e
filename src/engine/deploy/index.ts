import type * as HeldCopies from './held-copies.js';

export { CrossStackRun } from './cross-stack-run.js';
export { deployStack } from './deploy-entry.js';
export { type StackDeployResult } from './deploy-result.js';

/** Loaded when first called: a deploy run loads the held-copy release only once it has held copies to release. */
export async function releaseHeldCopies(
  ...args: Parameters<typeof HeldCopies.releaseHeldCopies>
): ReturnType<typeof HeldCopies.releaseHeldCopies> {
  return (await import('./held-copies.js')).releaseHeldCopies(...args);
}
export { stalePlan } from './saved-plan-check.js';
