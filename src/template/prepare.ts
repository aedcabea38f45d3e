import { cdkBootstrapSkips } from './bootstrap-rule.js';
import { conditionLookup, evaluateConditions } from './conditions.js';
import type { EvaluationContext, ParameterValue, ResourceResolver } from './context.js';
import { TemplateErrorCode, TemplateEvaluationError } from './errors.js';
import { evaluate } from './evaluator.js';
import { buildDependencyGraph, removedResources } from './graph-builder.js';
import type { DependencyGraph } from './graph.js';
import { isPlainObject, type Template } from './model.js';
import {
  maskParameters,
  resolveParameters,
  type ResolvedParameters,
  type SsmParameterResolver,
  type SuppliedParameterValue,
} from './parameters.js';
import { childPath, rootPath } from './path.js';
import { buildPseudoParameters, type PseudoParameterInput } from './pseudo-parameters.js';
import { evaluateRules, type RuleLookups } from './rules.js';
import { RESOURCE_POLICIES } from './resource-policies.js';

export interface PrepareInputs {
  readonly pseudo: PseudoParameterInput;
  readonly parameters?: Readonly<Record<string, SuppliedParameterValue>>;
  /** Reads SSM-typed parameters; called once per distinct SSM name, in parallel. */
  readonly ssmParameter?: SsmParameterResolver;
  /**
   * Skip CDK's CheckBootstrapVersion rule and, when only that rule uses it, its
   * BootstrapVersion parameter (default true; see bootstrap-rule.ts for why).
   */
  readonly ignoreCdkBootstrapRule?: boolean;
  readonly ruleLookups?: RuleLookups;
  /** Availability zones for Fn::GetAZs; default: the region plus a, b, c. */
  readonly getAZs?: (region: string) => readonly string[];
}

/** What the engine answers during evaluation: resources from state, exports from other stacks. */
export interface ExternalResolver extends ResourceResolver {
  /** undefined when no stack exports `name` (→ IMPORT_NOT_FOUND). */
  importValue(name: string): unknown;
}

export interface EvaluatedOutput {
  readonly name: string;
  readonly value: unknown;
  readonly description?: string;
  readonly exportName?: string;
}

/**
 * Parameters resolved (SSM included), Rules checked, Conditions evaluated: everything that
 * does not depend on resources. Async only for the SSM reads.
 */
export async function prepareTemplate(template: Template, inputs: PrepareInputs): Promise<PreparedTemplate> {
  const skips =
    inputs.ignoreCdkBootstrapRule === false
      ? { rules: new Set<string>(), parameters: new Set<string>() }
      : cdkBootstrapSkips(template);
  const parameters = await resolveParameters(template, inputs.parameters, {
    ssmParameter: inputs.ssmParameter,
    skip: skips.parameters,
  });
  const scope = {
    parameters: parameters.values,
    pseudo: buildPseudoParameters(inputs.pseudo),
    mappings: template.mappings,
    getAZs: inputs.getAZs,
  };
  evaluateRules(template, scope, { skip: skips.rules, lookups: inputs.ruleLookups });
  const conditions = evaluateConditions(template, scope);
  return new PreparedTemplate(template, parameters, conditions, scope.pseudo, inputs.getAZs, skips.rules);
}

export class PreparedTemplate {
  /** Resources this deploy creates, in template order. */
  readonly activeResources: readonly string[];
  /** Resources a false condition removes: logical id → condition name. */
  readonly removedResources: ReadonlyMap<string, string>;
  readonly activeOutputs: readonly string[];
  private graph: DependencyGraph | undefined;
  private readonly activeSet: ReadonlySet<string>;

  constructor(
    readonly template: Template,
    readonly parameters: ResolvedParameters,
    readonly conditions: ReadonlyMap<string, boolean>,
    readonly pseudo: ReadonlyMap<string, ParameterValue>,
    private readonly getAZs: ((region: string) => readonly string[]) | undefined,
    /** Rules not evaluated (CheckBootstrapVersion unless told otherwise). */
    readonly skippedRules: ReadonlySet<string>,
  ) {
    this.removedResources = removedResources(template, conditions);
    this.activeResources = [...template.resources.keys()].filter((id) => !this.removedResources.has(id));
    this.activeSet = new Set(this.activeResources);
    this.activeOutputs = [...template.outputs.values()]
      .filter(
        (output) => output.condition === undefined || this.conditionValue(output.condition, output.name),
      )
      .map((output) => output.name);
  }

  private conditionValue(name: string, output: string): boolean {
    return conditionLookup(this.conditions)(name, rootPath('Outputs', output, 'Condition'));
  }

  /** NoEcho values as `***`: what may be stored in state or printed. */
  maskedParameters(): Record<string, ParameterValue> {
    return maskParameters(this.parameters);
  }

  /** The same template with NoEcho values as `***`: evaluates what may be stored. */
  withMaskedParameters(): PreparedTemplate {
    const values = new Map(Object.entries(this.maskedParameters()));
    return new PreparedTemplate(
      this.template,
      { values, noEcho: this.parameters.noEcho },
      this.conditions,
      this.pseudo,
      this.getAZs,
      this.skippedRules,
    );
  }

  /** The evaluation context for resource properties and outputs. */
  context(resolver: ExternalResolver): EvaluationContext {
    return {
      parameters: this.parameters.values,
      pseudo: this.pseudo,
      mappings: this.template.mappings,
      condition: conditionLookup(this.conditions),
      resources: resolver,
      resourceIds: this.activeSet,
      removedResources: this.removedResources,
      importValue: (name) => resolver.importValue(name),
      getAZs: this.getAZs,
    };
  }

  /** A resource's Properties with every intrinsic resolved (dynamic references kept). */
  evaluateResourceProperties(logicalId: string, resolver: ExternalResolver): Record<string, unknown> {
    const resource = this.template.resources.get(logicalId);
    const path = rootPath('Resources', logicalId);
    if (!resource || !this.activeSet.has(logicalId)) {
      const why = resource
        ? `its condition ${this.removedResources.get(logicalId)} is false`
        : 'it is not in the template';
      throw new TemplateEvaluationError(
        TemplateErrorCode.InvalidReference,
        path,
        `cannot evaluate ${logicalId}: ${why}`,
      );
    }
    const value = evaluate(resource.properties, this.context(resolver), childPath(path, 'Properties'));
    return isPlainObject(value) ? value : {};
  }

  /** DeletionPolicy and UpdateReplacePolicy, which may use Ref or Fn::If on parameters. */
  resourcePolicies(logicalId: string): { deletionPolicy?: string; updateReplacePolicy?: string } {
    const resource = this.template.resources.get(logicalId);
    if (!resource)
      throw new TemplateEvaluationError(
        TemplateErrorCode.Invalid,
        `Resources.${logicalId}`,
        'no such resource',
      );
    const ctx: EvaluationContext = {
      parameters: this.parameters.values,
      pseudo: this.pseudo,
      mappings: this.template.mappings,
      condition: conditionLookup(this.conditions),
      referenceScope: 'policies can only reference parameters and pseudo parameters',
    };
    const policy = (value: unknown, key: string) => {
      if (value === undefined) return undefined;
      const path = rootPath('Resources', logicalId, key);
      const result = evaluate(value, ctx, path);
      if (result === undefined) return undefined;
      if (typeof result !== 'string' || !RESOURCE_POLICIES.includes(result)) {
        throw new TemplateEvaluationError(
          TemplateErrorCode.Invalid,
          path,
          `must be one of ${RESOURCE_POLICIES.join(', ')}`,
        );
      }
      return result;
    };
    return {
      deletionPolicy: policy(resource.deletionPolicy, 'DeletionPolicy'),
      updateReplacePolicy: policy(resource.updateReplacePolicy, 'UpdateReplacePolicy'),
    };
  }

  /** One active output, evaluated; a failure names the output, so callers can keep the rest. */
  evaluateOutput(name: string, resolver: ExternalResolver): EvaluatedOutput {
    const output = this.template.outputs.get(name);
    if (!output)
      throw new TemplateEvaluationError(TemplateErrorCode.Invalid, `Outputs.${name}`, 'no such output');
    if (!this.activeOutputs.includes(name)) {
      throw new TemplateEvaluationError(
        TemplateErrorCode.InvalidReference,
        `Outputs.${name}`,
        `cannot evaluate output ${name}: its condition ${output.condition} is false`,
      );
    }
    const ctx = this.context(resolver);
    const path = rootPath('Outputs', name);
    const text = (value: unknown, key: string) => {
      if (value === undefined) return undefined;
      const result = evaluate(value, ctx, childPath(path, key));
      if (typeof result !== 'string') {
        throw new TemplateEvaluationError(
          TemplateErrorCode.Evaluation,
          childPath(path, key),
          'must evaluate to a string',
        );
      }
      return result;
    };
    return {
      name,
      value: evaluate(output.value, ctx, childPath(path, 'Value')),
      description: text(output.description, 'Description'),
      exportName: text(output.exportName, 'Export'),
    };
  }

  /** Every active output, in template order. */
  evaluateOutputs(resolver: ExternalResolver): EvaluatedOutput[] {
    return this.activeOutputs.map((name) => this.evaluateOutput(name, resolver));
  }

  /** The graph of active resources (built once). */
  dependencyGraph(): DependencyGraph {
    this.graph ??= buildDependencyGraph(this.template, this.conditions);
    return this.graph;
  }
}
