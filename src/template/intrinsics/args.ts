import { NO_VALUE, type EvaluationContext, type Evaluate } from '../context.js';
import { evaluationError } from '../errors.js';
import type { TemplatePath } from '../path.js';

/** `args` must be a list of `min`..`max` elements (the raw, unevaluated arguments). */
export function argList(fn: string, args: unknown, path: TemplatePath, min: number, max = min): unknown[] {
  if (!Array.isArray(args) || args.length < min || args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    const got = Array.isArray(args) ? `${args.length}` : `a ${describe(args)}`;
    throw evaluationError(path, `${fn} expects a list of ${want} arguments, got ${got}`);
  }
  return args;
}

export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'null';
  if (value === NO_VALUE) return 'AWS::NoValue';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Scalars become strings the way CloudFormation stringifies them (`1` → `"1"`). */
export function asString(value: unknown, fn: string, what: string, path: TemplatePath): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw evaluationError(path, `${fn} ${what} must be a string, got a ${describe(value)}`);
}

export function evalString(
  value: unknown,
  ctx: EvaluationContext,
  path: TemplatePath,
  evaluate: Evaluate,
  fn: string,
  what: string,
): string {
  return asString(evaluate(value, ctx, path), fn, what, path);
}

/** Evaluates to a list (literal, or an intrinsic returning one), dropping AWS::NoValue entries. */
export function evalList(
  value: unknown,
  ctx: EvaluationContext,
  path: TemplatePath,
  evaluate: Evaluate,
  fn: string,
  what: string,
): unknown[] {
  const result = evaluate(value, ctx, path);
  if (!Array.isArray(result))
    throw evaluationError(path, `${fn} ${what} must be a list, got a ${describe(result)}`);
  return result;
}

/** A whole number given as a number or a numeric string (Fn::Select index, Fn::Cidr count). */
export function evalInteger(
  value: unknown,
  ctx: EvaluationContext,
  path: TemplatePath,
  evaluate: Evaluate,
  fn: string,
  what: string,
): number {
  const result = evaluate(value, ctx, path);
  const n = typeof result === 'string' && /^\s*-?\d+\s*$/.test(result) ? Number(result) : result;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw evaluationError(
      path,
      `${fn} ${what} must be an integer, got ${JSON.stringify(result) ?? describe(result)}`,
    );
  }
  return n;
}
