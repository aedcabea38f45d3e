import type { Template } from '../../assembly/index.js';

export type Resources = Record<string, { Type?: unknown; Properties?: Record<string, unknown> }>;

export function resourcesOf(template: Template): Resources {
  return (template.Resources ?? {}) as Resources;
}

/** The logical ID a `{Ref}` names, or undefined. */
export function refOf(value: unknown): string | undefined {
  const ref = typeof value === 'object' && value !== null ? (value as { Ref?: unknown }).Ref : undefined;
  return typeof ref === 'string' ? ref : undefined;
}

/** The logical ID and attribute a `{Fn::GetAtt}` names, or undefined. */
export function getAttOf(value: unknown): [string, string] | undefined {
  const att =
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)['Fn::GetAtt']
      : undefined;
  if (Array.isArray(att) && typeof att[0] === 'string' && typeof att[1] === 'string') return [att[0], att[1]];
  if (typeof att === 'string' && att.includes('.')) {
    const dot = att.indexOf('.');
    return [att.slice(0, dot), att.slice(dot + 1)];
  }
  return undefined;
}

/**
 * The Lambda function of this template an integration or authorizer URI names: CDK writes
 * the function's ARN (`Fn::GetAtt [Fn, Arn]`, or `Ref`) inside API Gateway's invocation URI.
 */
export function functionIn(expression: unknown, resources: Resources): string | undefined {
  const isFunction = (id: string): boolean => resources[id]?.Type === 'AWS::Lambda::Function';
  const att = getAttOf(expression);
  if (att && att[1] === 'Arn' && isFunction(att[0])) return att[0];
  const ref = refOf(expression);
  if (ref && isFunction(ref)) return ref;
  if (Array.isArray(expression)) {
    for (const item of expression) {
      const found = functionIn(item, resources);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof expression === 'object' && expression !== null) {
    for (const value of Object.values(expression)) {
      const found = functionIn(value, resources);
      if (found) return found;
    }
  }
  return undefined;
}

export const LOCAL_ARN_PREFIX = 'arn:aws:lambda:';

/** The stand-in ARN a local function answers to: its logical ID as the function name. */
export function localFunctionArn(region: string, logicalId: string): string {
  return `${LOCAL_ARN_PREFIX}${region}:000000000000:function:${logicalId}`;
}

export function logicalIdOfArn(arn: string): string {
  return arn.slice(arn.lastIndexOf(':') + 1);
}
