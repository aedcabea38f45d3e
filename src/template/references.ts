import { intrinsicName } from './evaluator.js';
import { isPlainObject } from './model.js';
import { childPath, type TemplatePath } from './path.js';
import { parseSubString, subPlaceholderTarget } from './intrinsics/sub.js';
import { splitGetAttString } from './yaml-tags.js';

/** A name a template fragment points at through Ref, Fn::GetAtt or an Fn::Sub placeholder. */
export interface Reference {
  readonly target: string;
  readonly via: 'Ref' | 'Fn::GetAtt' | 'Fn::Sub';
  /** Where the referencing intrinsic sits. */
  readonly path: TemplatePath;
  /** Inside an Fn::If branch that the current condition values do not take. */
  readonly untaken: boolean;
  /** True for an attribute read (Fn::GetAtt, `${Target.Attr}`); false for the physical id. */
  readonly readsAttribute: boolean;
}

/** Condition value by name; undefined when unknown (both Fn::If branches then count as taken). */
export type ConditionValues = (name: string) => boolean | undefined;

/**
 * Every reference inside `value`, pseudo parameters (`AWS::...`) excluded. Both Fn::If
 * branches are scanned (the untaken one flagged), so an edge is never missed.
 */
export function collectReferences(
  value: unknown,
  path: TemplatePath,
  conditions: ConditionValues = () => undefined,
  out: Reference[] = [],
  untaken = false,
): Reference[] {
  if (typeof value !== 'object' || value === null) return out;
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectReferences(item, childPath(path, i), conditions, out, untaken));
    return out;
  }
  const obj = value as Record<string, unknown>;
  const fn = intrinsicName(obj);
  const add = (target: string, via: Reference['via'], readsAttribute: boolean) => {
    if (!target.startsWith('AWS::')) out.push({ target, via, path, untaken, readsAttribute });
  };
  const args = fn === undefined ? undefined : obj[fn];
  const argsPath = fn === undefined ? path : childPath(path, fn);
  switch (fn) {
    case undefined:
      for (const key in obj) collectReferences(obj[key], childPath(path, key), conditions, out, untaken);
      return out;
    case 'Ref':
      if (typeof args === 'string') add(args, 'Ref', false);
      return out;
    case 'Fn::GetAtt': {
      const id =
        typeof args === 'string' ? splitGetAttString(args)?.[0] : Array.isArray(args) ? args[0] : undefined;
      if (typeof id === 'string') add(id, 'Fn::GetAtt', true);
      if (Array.isArray(args)) collectReferences(args[1], childPath(argsPath, 1), conditions, out, untaken);
      return out;
    }
    case 'Fn::Sub': {
      const [text, vars] = Array.isArray(args) ? args : [args];
      const defined = isPlainObject(vars) ? vars : {};
      if (typeof text === 'string') {
        for (const part of parseSubString(text)) {
          if (typeof part === 'string' || Object.hasOwn(defined, part.name)) continue;
          const attribute = subPlaceholderTarget(part.name);
          add(attribute?.[0] ?? part.name, 'Fn::Sub', attribute !== undefined);
        }
      }
      collectReferences(vars, childPath(argsPath, 1), conditions, out, untaken);
      return out;
    }
    case 'Fn::If': {
      if (!Array.isArray(args)) return out;
      const taken = typeof args[0] === 'string' ? conditions(args[0]) : undefined;
      collectReferences(args[1], childPath(argsPath, 1), conditions, out, untaken || taken === false);
      collectReferences(args[2], childPath(argsPath, 2), conditions, out, untaken || taken === true);
      return out;
    }
    default:
      return collectReferences(args, argsPath, conditions, out, untaken);
  }
}

/** An Fn::ImportValue of a literal export name inside a template fragment. */
export interface ImportRead {
  readonly name: string;
  readonly path: TemplatePath;
}

/**
 * Every Fn::ImportValue of a literal export name inside `value` (as CDK's cross-stack
 * references write them), skipping Fn::If branches the condition values do not take.
 */
export function collectImports(
  value: unknown,
  path: TemplatePath,
  conditions: ConditionValues = () => undefined,
  out: ImportRead[] = [],
): ImportRead[] {
  if (typeof value !== 'object' || value === null) return out;
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectImports(item, childPath(path, i), conditions, out));
    return out;
  }
  const obj = value as Record<string, unknown>;
  const fn = intrinsicName(obj);
  if (fn === 'Fn::ImportValue' && typeof obj[fn] === 'string') {
    out.push({ name: obj[fn], path });
    return out;
  }
  if (fn === 'Fn::If' && Array.isArray(obj[fn])) {
    const args = obj[fn] as unknown[];
    const taken = typeof args[0] === 'string' ? conditions(args[0]) : undefined;
    const argsPath = childPath(path, fn);
    if (taken !== false) collectImports(args[1], childPath(argsPath, 1), conditions, out);
    if (taken !== true) collectImports(args[2], childPath(argsPath, 2), conditions, out);
    return out;
  }
  for (const key in obj) collectImports(obj[key], childPath(path, key), conditions, out);
  return out;
}
