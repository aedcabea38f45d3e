import type { EvaluationContext, IntrinsicHandler, ParameterValue } from './context.js';
import { TemplateErrorCode, TemplateEvaluationError, evaluationError } from './errors.js';
import { evaluateNode } from './evaluator.js';
import { argList, evalList, evalString } from './intrinsics/args.js';
import { evaluateConditionOperand, valuesEqual } from './intrinsics/condition-functions.js';
import type { Template } from './model.js';
import { childPath, rootPath } from './path.js';

/**
 * Answers for the rule functions that ask AWS about parameter values (all resources of an
 * AWS-specific type, an attribute of a VPC...). Synchronous: the caller fetches beforehand.
 */
export interface RuleLookups {
  refAll?(parameterType: string): readonly string[];
  /** Fn::ValueOf (not named valueOf: that would collide with Object.prototype.valueOf). */
  valueOfParameter?(parameterName: string, attribute: string): ParameterValue;
  valueOfAll?(parameterType: string, attribute: string): readonly string[];
}

/** CDK's default synthesizer adds this rule; see prepare.ts for why cdkd skips it. */
export const CDK_BOOTSTRAP_RULE = 'CheckBootstrapVersion';

function unavailable(fn: string): IntrinsicHandler {
  return (_args, _ctx, path) => {
    throw new TemplateEvaluationError(
      TemplateErrorCode.RuleFunctionUnavailable,
      path,
      `${fn} needs a lookup in AWS that this evaluation was not given`,
      { hint: 'Pass ruleLookups to prepareTemplate, or remove the rule.' },
    );
  };
}

function memberTest(fn: string, test: (list: unknown[], value: unknown) => boolean): IntrinsicHandler {
  return (args, ctx, path, evaluate) => {
    const [listArg, valueArg] = argList(fn, args, path, 2);
    const fnPath = childPath(path, fn);
    const list = evalList(listArg, ctx, childPath(fnPath, 0), evaluate, fn, 'first argument');
    return test(list, evaluate(valueArg, ctx, childPath(fnPath, 1)));
  };
}

export function ruleFunctions(lookups: RuleLookups = {}): Record<string, IntrinsicHandler> {
  const { refAll, valueOfParameter, valueOfAll } = lookups;
  return {
    'Fn::Contains': memberTest('Fn::Contains', (list, value) => list.some((m) => valuesEqual(m, value))),
    'Fn::EachMemberEquals': memberTest('Fn::EachMemberEquals', (list, value) =>
      list.every((m) => valuesEqual(m, value)),
    ),
    'Fn::EachMemberIn': memberTest('Fn::EachMemberIn', (list, allowed) => {
      if (!Array.isArray(allowed)) return false;
      return list.every((m) => allowed.some((a) => valuesEqual(m, a)));
    }),
    'Fn::RefAll': refAll
      ? (args, ctx, path, evaluate) => [
          ...refAll(evalString(args, ctx, path, evaluate, 'Fn::RefAll', 'parameter type')),
        ]
      : unavailable('Fn::RefAll'),
    'Fn::ValueOf': valueOfParameter
      ? (args, ctx, path, evaluate) => {
          const [name, attribute] = argList('Fn::ValueOf', args, path, 2).map((a, i) =>
            evalString(
              a,
              ctx,
              childPath(childPath(path, 'Fn::ValueOf'), i),
              evaluate,
              'Fn::ValueOf',
              'argument',
            ),
          ) as [string, string];
          if (!ctx.parameters.has(name)) throw evaluationError(path, `Fn::ValueOf: no parameter "${name}"`);
          return valueOfParameter(name, attribute);
        }
      : unavailable('Fn::ValueOf'),
    'Fn::ValueOfAll': valueOfAll
      ? (args, ctx, path, evaluate) => {
          const [type, attribute] = argList('Fn::ValueOfAll', args, path, 2).map((a, i) =>
            evalString(
              a,
              ctx,
              childPath(childPath(path, 'Fn::ValueOfAll'), i),
              evaluate,
              'Fn::ValueOfAll',
              'argument',
            ),
          ) as [string, string];
          return [...valueOfAll(type, attribute)];
        }
      : unavailable('Fn::ValueOfAll'),
  };
}

export type RuleScope = Omit<EvaluationContext, 'condition' | 'resources' | 'resourceIds' | 'extraFunctions'>;

/**
 * Evaluates each rule's RuleCondition and, when it holds (or is absent), its Assertions.
 * A false assertion is RULE_ASSERTION_FAILED carrying the rule's AssertDescription.
 */
export function evaluateRules(
  template: Template,
  scope: RuleScope,
  options: { skip?: ReadonlySet<string>; lookups?: RuleLookups } = {},
): void {
  const ctx: EvaluationContext = {
    ...scope,
    extraFunctions: ruleFunctions(options.lookups),
    referenceScope: 'Rules can only reference parameters and pseudo parameters',
    condition: (name, path) => {
      throw evaluationError(path, `Rules cannot use conditions (found a reference to "${name}")`);
    },
  };
  for (const [name, rule] of template.rules) {
    if (options.skip?.has(name)) continue;
    const path = rootPath('Rules', name);
    if (
      rule.ruleCondition !== undefined &&
      !evaluateConditionOperand(rule.ruleCondition, ctx, childPath(path, 'RuleCondition'), evaluateNode)
    ) {
      continue;
    }
    rule.assertions.forEach((assertion, i) => {
      const at = childPath(childPath(path, 'Assertions'), i);
      if (evaluateConditionOperand(assertion.assert, ctx, childPath(at, 'Assert'), evaluateNode)) return;
      throw new TemplateEvaluationError(
        TemplateErrorCode.RuleAssertionFailed,
        at,
        assertion.description ?? `rule ${name} failed`,
        { hint: 'Check the parameter values this rule tests (--parameters).' },
      );
    });
  }
}
