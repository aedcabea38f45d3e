// The public surface of src/template: pure template model and evaluation, no state, no AWS.
export { NO_VALUE } from './context.js';
export type { EvaluationContext, ParameterValue, ResourceResolver } from './context.js';
export { TemplateErrorCode, TemplateEvaluationError } from './errors.js';
export { evaluate, KNOWN_INTRINSICS } from './evaluator.js';
export { parseTemplate, parseTemplateText } from './parse.js';
export { buildTemplate, validateTemplate } from './model.js';
export type {
  Mappings,
  OutputDefinition,
  ParameterDefinition,
  ResourceDefinition,
  RuleDefinition,
  Template,
} from './model.js';
export { classifyParameterType } from './parameter-types.js';
export { MASK, maskParameters, resolveParameters, resolveParameterValue } from './parameters.js';
export type { ResolvedParameters, SsmParameterResolver, SuppliedParameterValue } from './parameters.js';
export { buildPseudoParameters, partitionForRegion, urlSuffixForRegion } from './pseudo-parameters.js';
export type { PseudoParameterInput } from './pseudo-parameters.js';
export { evaluateConditions } from './conditions.js';
export { CDK_BOOTSTRAP_RULE, evaluateRules } from './rules.js';
export type { RuleLookups } from './rules.js';
export { CDK_BOOTSTRAP_PARAMETER, cdkBootstrapSkips } from './bootstrap-rule.js';
export { letterSuffixAZs } from './intrinsics/misc.js';
export { cidrSubnets } from './intrinsics/cidr.js';
export {
  containsDynamicReference,
  parseDynamicReferences,
  resolveDynamicReferences,
} from './dynamic-references.js';
export type { DynamicReference, DynamicReferenceResolver } from './dynamic-references.js';
export { collectImports, collectReferences } from './references.js';
export type { ImportRead, Reference } from './references.js';
export { DependencyGraph } from './graph.js';
export type { Weights } from './graph.js';
export { buildDependencyGraph, removedResources } from './graph-builder.js';
export { prepareTemplate, PreparedTemplate } from './prepare.js';
export type { EvaluatedOutput, ExternalResolver, PrepareInputs } from './prepare.js';
export { rootPath, formatPath } from './path.js';
export { keepsOnRollbackOfCreate, keepsResource, RESOURCE_POLICIES } from './resource-policies.js';
export type { TemplatePath } from './path.js';
export type { TemplateProblem } from './validate-intrinsics.js';
