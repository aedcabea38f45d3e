import type { EvaluationContext, Evaluate, IntrinsicHandler } from '../context.js';
import { evaluationError } from '../errors.js';
import { isPlainObject } from '../model.js';
import { childPath, type TemplatePath } from '../path.js';
import { argList, describe } from './args.js';

/**
 * An operand of Fn::And / Fn::Or / Fn::Not (or a Conditions entry): a condition function or
 * `{ "Condition": "Name" }`. The latter is only read as a reference here, because in
 * Properties a one-key `Condition` object is ordinary data (an IAM statement's Condition).
 */
export function evaluateConditionOperand(
  value: unknown,
  ctx: EvaluationContext,
  path: TemplatePath,
  evaluate: Evaluate,
): boolean {
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'Condition') {
      const name = value.Condition;
      if (typeof name !== 'string') throw evaluationError(path, 'Condition must name a condition');
      return ctx.condition(name, path);
    }
  }
  const result = evaluate(value, ctx, path);
  if (typeof result === 'boolean') return result;
  if (result === 'true' || result === 'false') return result === 'true';
  throw evaluationError(path, `expected a condition (Fn::Equals, Fn::And, ...), got a ${describe(result)}`);
}

/** Fn::Equals compares values as CloudFormation does: scalars by their string form. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  if (scalar(a) && scalar(b)) return String(a) === String(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

export const evaluateEquals: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const [a, b] = argList('Fn::Equals', args, path, 2);
  const fnPath = childPath(path, 'Fn::Equals');
  return valuesEqual(evaluate(a, ctx, childPath(fnPath, 0)), evaluate(b, ctx, childPath(fnPath, 1)));
};

function combine(fn: 'Fn::And' | 'Fn::Or'): IntrinsicHandler {
  return (args, ctx, path, evaluate) => {
    const operands = argList(fn, args, path, 2, 10);
    const fnPath = childPath(path, fn);
    // Every operand is evaluated (no short-circuit) so a broken one is reported either way.
    const values = operands.map((op, i) => evaluateConditionOperand(op, ctx, childPath(fnPath, i), evaluate));
    return fn === 'Fn::And' ? values.every(Boolean) : values.some(Boolean);
  };
}

export const evaluateAnd = combine('Fn::And');
export const evaluateOr = combine('Fn::Or');

export const evaluateNot: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const [operand] = argList('Fn::Not', args, path, 1);
  return !evaluateConditionOperand(operand, ctx, childPath(childPath(path, 'Fn::Not'), 0), evaluate);
};

/** Only the chosen branch is evaluated: the other may name a resource its condition removed. */
export const evaluateIf: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const [name, whenTrue, whenFalse] = argList('Fn::If', args, path, 3);
  const fnPath = childPath(path, 'Fn::If');
  if (typeof name !== 'string') {
    throw evaluationError(path, `Fn::If condition must be a condition name, got a ${describe(name)}`);
  }
  return ctx.condition(name, childPath(fnPath, 0))
    ? evaluate(whenTrue, ctx, childPath(fnPath, 1))
    : evaluate(whenFalse, ctx, childPath(fnPath, 2));
};
