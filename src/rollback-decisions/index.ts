export { isAddressable } from './addressable.js';
export { proveIdentity } from './creation-identity.js';
export { decideDropFailed } from './drop-failed.js';
export {
  decidePutBack,
  holdersOf,
  type InlinePolicyHolder,
  type InlinePolicyName,
  removedInlinePolicies,
  withoutName,
} from './inline-policy-names.js';
export { compareLive, comparesLiveIdentity, type LiveRead } from './live-comparison.js';
export { decideMadeResource, type MadePath, type MadeResourceFacts } from './made-resource.js';
export {
  nameCollisionMessage,
  nameHeldByNewCopyMessage,
  newResourceHoldsName,
  retainedHolderMessage,
} from './name-holder.js';
export { decideOperation } from './operation.js';
export { recreateName, type RecreateName } from './recreate-name.js';
export { type RollbackStep } from './steps.js';
