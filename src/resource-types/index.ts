/**
 * The resource-type catalog: every per-type fact that the providers, planning and the engine
 * read. It imports nothing above the root's ground-floor files.
 */
export {
  attributesOf,
  indexSource,
  isKnownType,
  isStateful,
  knownTypes,
  nestedReplacementPathsOf,
  primaryIdentifierOf,
  replacementOf,
  schemaFor,
  statefulnessOf,
} from './schemas.js';
export type { PropertyKind, ReplacementVerdict, ResourceSchema } from './schemas.js';
export {
  CONSENT_CONSUMING_DELETES,
  SNAPSHOT_TYPES,
  STATEFUL_TYPE_TABLE,
  statefulTableReason,
  statefulTableVerdict,
} from './statefulness.js';
export type { EmptinessVerdict, Statefulness } from './statefulness.js';
export { ownReplacementRule } from './replacement-rules.js';
export type { OwnReplacementRule, OwnRuleLookup } from './replacement-rules.js';
export {
  OWN_REFUSAL_TYPES,
  PROTECTION_OFF_ALLOWANCE_MS,
  REMOVE_PROTECTION_TABLE,
  ownProtectionRefusal,
  protectionNote,
  protectionOffChanges,
  safeOnCommandLine,
  turnOffAdvice,
} from './deletion-protection.js';
export { LIVE_ATTRIBUTES, liveAttributeRoute } from './live-attributes.js';
export type { LiveAttributeRoute } from './live-attributes.js';
export { arnFromNameOf, globalNameOf, parentPrefixedIdOf } from './name-rules.js';
export type { ArnPlace, GlobalName, ParentPrefixedId } from './name-rules.js';
export { revertProperties } from './drift-exceptions.js';
export { CDK_METADATA_TYPE, NESTED_STACK_TYPE } from './template-only-types.js';
export { foldAscii, needsNoCreationIdentity, sameId } from './identifiers.js';
export { nameProperty, readPath } from './name-properties.js';
export type { NameProperty } from './name-properties.js';
export { liveIdentityComparedOnCloudControl, liveIdentityRuleOf } from './live-identity.js';
export type { LiveIdentityRule } from './live-identity.js';
export {
  INLINE_POLICY_TARGETS,
  INLINE_POLICY_TYPE,
  principalKindOf,
  principalTypeOf,
} from './inline-policies.js';
export type { PrincipalKind } from './inline-policies.js';
