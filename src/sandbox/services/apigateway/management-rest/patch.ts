import type { ResourceModel } from '../../../resources.js';
import { apigwErrors } from './errors.js';

/** One of API Gateway's patch operations: values travel as strings. */
export interface PatchOperation {
  op?: string;
  path?: string;
  value?: string;
}

/**
 * How a patch path writes the model: a scalar property (`/description`), an entry of a map
 * (`/variables/{name}`) or of a list of strings (`/binaryMediaTypes/{type}`), or its own rule.
 */
export type PatchRule =
  | { kind: 'string' | 'int' | 'bool'; prop: string }
  | { kind: 'map' | 'set'; prop: string }
  | { kind: 'custom'; apply(model: ResourceModel, op: PatchOperation): void };

/**
 * Applies `patchOperations` to a copy of `model`. A path is one of `rules`' keys, where a key
 * ending in `/*` takes any one segment (`~1` is `/`, `~0` is `~`, as JSON Pointer escapes them).
 */
export function applyPatch(
  model: ResourceModel,
  operations: unknown,
  rules: Readonly<Record<string, PatchRule>>,
): ResourceModel {
  const next = structuredClone(model);
  for (const operation of Array.isArray(operations) ? (operations as PatchOperation[]) : []) {
    const op = operation.op ?? '';
    const path = operation.path ?? '';
    if (!['add', 'remove', 'replace'].includes(op)) {
      throw apigwErrors.badRequest(
        `Invalid patch operation specified. Must be one of: [add, remove, replace]`,
      );
    }
    const { rule, key } = ruleFor(rules, path, op);
    applyRule(next, rule, key, { ...operation, op });
  }
  return next;
}

function ruleFor(
  rules: Readonly<Record<string, PatchRule>>,
  path: string,
  op: string,
): { rule: PatchRule; key?: string } {
  if (rules[path]) return { rule: rules[path] };
  const slash = path.lastIndexOf('/');
  const wildcard = rules[`${path.slice(0, slash)}/*`];
  if (slash > 0 && wildcard) {
    return {
      rule: wildcard,
      key: path
        .slice(slash + 1)
        .replace(/~1/g, '/')
        .replace(/~0/g, '~'),
    };
  }
  throw apigwErrors.badRequest(
    `Invalid patch path '${path}' specified for op '${op}'. Must be one of: [${Object.keys(rules).join(', ')}]`,
  );
}

function applyRule(model: ResourceModel, rule: PatchRule, key: string | undefined, op: PatchOperation): void {
  const value = op.value;
  switch (rule.kind) {
    case 'custom':
      rule.apply(model, op);
      return;
    case 'map': {
      const map = { ...((model[rule.prop] as Record<string, unknown> | undefined) ?? {}) };
      if (op.op === 'remove') delete map[key!];
      else map[key!] = value ?? '';
      setOrDrop(model, rule.prop, Object.keys(map).length > 0 ? map : undefined);
      return;
    }
    case 'set': {
      const list = ((model[rule.prop] as unknown[] | undefined) ?? []).map(String).filter((v) => v !== key);
      if (op.op !== 'remove') list.push(key!);
      setOrDrop(model, rule.prop, list.length > 0 ? list : undefined);
      return;
    }
    default:
      setOrDrop(model, rule.prop, op.op === 'remove' ? undefined : scalar(rule.kind, rule.prop, value));
  }
}

function scalar(kind: 'string' | 'int' | 'bool', prop: string, value: string | undefined): unknown {
  if (kind === 'string') return value === undefined || value === '' ? undefined : value;
  if (kind === 'bool') {
    if (value !== 'true' && value !== 'false') {
      throw apigwErrors.badRequest(`Invalid value '${String(value)}' for ${prop}: true or false`);
    }
    return value === 'true';
  }
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number))
    throw apigwErrors.badRequest(`Invalid value '${value}' for ${prop}: an integer`);
  return number;
}

function setOrDrop(model: ResourceModel, prop: string, value: unknown): void {
  if (value === undefined) delete model[prop];
  else model[prop] = value;
}
