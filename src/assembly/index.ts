export * from './types.js';
export { synthesize, type SynthesizeOptions, type CallerEnvironment } from './synthesize.js';
export { readAssembly } from './read-assembly.js';
export { selectStacks, orderByDependencies, matchesStack, type StackSelector } from './select-stacks.js';
export { checkAssembly, type AssemblyCheckResult, type CheckedStack } from './check-assembly.js';
export {
  walkNestedStacks,
  flattenNestedStacks,
  type NestedStack,
  type NestedWalkOptions,
} from './nested-stacks.js';
export { checkAssetPaths } from './asset-paths.js';
export { loadAssetManifest } from './asset-manifest.js';
export {
  collectAnnotations,
  enforceAnnotations,
  formatAnnotation,
  summarizeAnnotations,
} from './annotations.js';
export type { ContextLookups, ContextQuery, LookupResult } from './missing-context.js';
export { PROJECT_CONTEXT, readContextFile, writeContextFile, type ContextValues } from './context.js';
export { readProjectConfig } from './project-config.js';
export { APPROVAL_LEVELS, type ApprovalLevel } from './approval-level.js';
export { REQUIRE_APPROVAL_ENV, requireApprovalSetting } from './require-approval-setting.js';
