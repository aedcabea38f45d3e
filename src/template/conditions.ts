import type { EvaluationContext } from './context.js';
import { TemplateErrorCode, TemplateEvaluationError } from './errors.js';
import { evaluateNode } from './evaluator.js';
import { evaluateConditionOperand } from './intrinsics/condition-functions.js';
import type { Template } from './model.js';
import { rootPath, type TemplatePath } from './path.js';

export type ConditionScope = Omit<EvaluationContext, 'condition' | 'resources' | 'resourceIds'>;

function unknownCondition(name: string, path: TemplatePath): TemplateEvaluationError {
  return new TemplateEvaluationError(
    TemplateErrorCode.Invalid,
    path,
    `condition "${name}" is not defined in the Conditions section`,
  );
}

/** A `condition()` for contexts that read already-evaluated conditions. */
export function conditionLookup(results: ReadonlyMap<string, boolean>): EvaluationContext['condition'] {
  return (name, path) => {
    const value = results.get(name);
    if (value === undefined) throw unknownCondition(name, path);
    return value;
  };
}

/**
 * Evaluates every entry of the Conditions section. Conditions may reference each other
 * (`{ "Condition": "Other" }`) in any order, so each is evaluated on first use and a
 * reference back into the chain being evaluated is a CONDITION_CYCLE naming the chain.
 */
export function evaluateConditions(template: Template, scope: ConditionScope): Map<string, boolean> {
  const results = new Map<string, boolean>();
  const chain: string[] = [];
  const ctx: EvaluationContext = {
    ...scope,
    referenceScope: 'Conditions can only reference parameters and pseudo parameters',
    condition(name, path) {
      const known = results.get(name);
      if (known !== undefined) return known;
      const definition = template.conditions.get(name);
      if (definition === undefined) throw unknownCondition(name, path);
      if (chain.includes(name)) {
        const cycle = [...chain.slice(chain.indexOf(name)), name].join(' → ');
        throw new TemplateEvaluationError(
          TemplateErrorCode.ConditionCycle,
          path,
          `condition cycle: ${cycle}`,
        );
      }
      chain.push(name);
      const value = evaluateConditionOperand(definition, ctx, rootPath('Conditions', name), evaluateNode);
      chain.pop();
      results.set(name, value);
      return value;
    },
  };
  for (const name of template.conditions.keys()) ctx.condition(name, rootPath('Conditions', name));
  return results;
}
