import { NO_VALUE, type EvaluationContext, type IntrinsicHandler } from './context.js';
import { TemplateErrorCode, TemplateEvaluationError, evaluationError } from './errors.js';
import { evaluateCidr } from './intrinsics/cidr.js';
import {
  evaluateAnd,
  evaluateEquals,
  evaluateIf,
  evaluateNot,
  evaluateOr,
} from './intrinsics/condition-functions.js';
import { evaluateFindInMap } from './intrinsics/find-in-map.js';
import { evaluateGetAtt } from './intrinsics/get-att.js';
import { evaluateJoin, evaluateSelect, evaluateSplit } from './intrinsics/join-split-select.js';
import {
  evaluateBase64,
  evaluateGetAZs,
  evaluateImportValue,
  evaluateLength,
  evaluateToJsonString,
} from './intrinsics/misc.js';
import { evaluateRef } from './intrinsics/ref.js';
import { evaluateSub } from './intrinsics/sub.js';
import { childPath, rootPath, type TemplatePath } from './path.js';

const INTRINSICS: Readonly<Record<string, IntrinsicHandler>> = {
  Ref: evaluateRef,
  'Fn::GetAtt': evaluateGetAtt,
  'Fn::Sub': evaluateSub,
  'Fn::Join': evaluateJoin,
  'Fn::Select': evaluateSelect,
  'Fn::Split': evaluateSplit,
  'Fn::If': evaluateIf,
  'Fn::Equals': evaluateEquals,
  'Fn::And': evaluateAnd,
  'Fn::Or': evaluateOr,
  'Fn::Not': evaluateNot,
  'Fn::FindInMap': evaluateFindInMap,
  'Fn::Base64': evaluateBase64,
  'Fn::GetAZs': evaluateGetAZs,
  'Fn::Cidr': evaluateCidr,
  'Fn::ImportValue': evaluateImportValue,
  'Fn::Length': evaluateLength,
  'Fn::ToJsonString': evaluateToJsonString,
};

/** Valid CloudFormation, but only inside Rules (they get them through `extraFunctions`). */
export const RULE_FUNCTIONS = [
  'Fn::Contains',
  'Fn::EachMemberEquals',
  'Fn::EachMemberIn',
  'Fn::RefAll',
  'Fn::ValueOf',
  'Fn::ValueOfAll',
] as const;

/** Every intrinsic name the evaluator knows, for the dependency scan and for tests. */
export const KNOWN_INTRINSICS: readonly string[] = [...Object.keys(INTRINSICS), ...RULE_FUNCTIONS];

/** The intrinsic name when `value` is `{ "Ref" | "Fn::*": args }`, else undefined. */
export function intrinsicName(value: Record<string, unknown>): string | undefined {
  let name: string | undefined;
  for (const key in value) {
    if (name !== undefined) return undefined;
    name = key;
  }
  return name !== undefined && (name === 'Ref' || name.startsWith('Fn::')) ? name : undefined;
}

/** True for `{ "Ref" | "Fn::*": args }`: a value only evaluation knows. */
export function isIntrinsic(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    intrinsicName(value as Record<string, unknown>) !== undefined
  );
}

/**
 * The recursive core: may return NO_VALUE, which containers drop. Exported for the
 * intrinsic modules' sake via the `evaluate` argument they receive, and for rules.ts.
 */
export function evaluateNode(value: unknown, ctx: EvaluationContext, path: TemplatePath): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = evaluateNode(value[i], ctx, childPath(path, i));
      if (item !== NO_VALUE) out.push(item);
    }
    return out;
  }
  const obj = value as Record<string, unknown>;
  const fn = intrinsicName(obj);
  if (fn !== undefined) return callIntrinsic(fn, obj[fn], ctx, path);
  const out: Record<string, unknown> = {};
  for (const key in obj) {
    const item = evaluateNode(obj[key], ctx, childPath(path, key));
    if (item === NO_VALUE) continue;
    // A plain assignment to "__proto__" would set the prototype and lose the key.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true });
    else out[key] = item;
  }
  return out;
}

function callIntrinsic(fn: string, args: unknown, ctx: EvaluationContext, path: TemplatePath): unknown {
  const handler = INTRINSICS[fn] ?? ctx.extraFunctions?.[fn];
  if (handler) return handler(args, ctx, path, evaluateNode);
  if ((RULE_FUNCTIONS as readonly string[]).includes(fn)) {
    throw evaluationError(path, `${fn} is only valid inside Rules`);
  }
  if (fn === 'Fn::Transform' || fn.startsWith('Fn::ForEach')) {
    throw evaluationError(path, `${fn} needs a CloudFormation macro or transform, which cdkd does not run`);
  }
  throw new TemplateEvaluationError(
    TemplateErrorCode.UnknownIntrinsic,
    path,
    `unknown intrinsic function ${fn}`,
    {
      hint: `Known functions: ${KNOWN_INTRINSICS.join(', ')}.`,
    },
  );
}

/**
 * Evaluate `value` (any template fragment) in `ctx`. Pure and synchronous: every lookup
 * goes through the context. `path` names where `value` sits, for error messages
 * (default `value`). A top-level `AWS::NoValue` comes back as undefined.
 */
export function evaluate(
  value: unknown,
  ctx: EvaluationContext,
  path: TemplatePath = rootPath('value'),
): unknown {
  const result = evaluateNode(value, ctx, path);
  return result === NO_VALUE ? undefined : result;
}
