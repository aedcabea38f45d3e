import { readPath, writePath } from '../../../patterns/json-path.js';
import { runtimeError, StatesError } from './errors.js';
import { evaluateIntrinsic, isIntrinsic } from './intrinsics.js';

/** What `$$` reads, and the variables `Assign` set. */
export interface Scope {
  context: Record<string, unknown>;
  variables: Record<string, unknown>;
}

/** A path as a payload template or Choice reads it: `$.x` the input, `$$.x` the context, `$name` a variable. */
export function resolve(path: string, input: unknown, scope: Scope): unknown {
  if (path.startsWith('$$')) return read(scope.context, `$${path.slice(2)}`);
  const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)(.*)$/.exec(path);
  if (variable && !path.startsWith('$.') && !path.startsWith('$[')) {
    if (!(variable[1]! in scope.variables))
      throw runtimeError(`The variable '${variable[1]}' is not defined`);
    return variable[2]
      ? read(scope.variables[variable[1]!], `$${variable[2]}`)
      : scope.variables[variable[1]!];
  }
  return read(input, path);
}

function read(document: unknown, path: string): unknown {
  try {
    return readPath(document, path);
  } catch (error) {
    throw runtimeError((error as Error).message);
  }
}

/** A path that must find something (InputPath, ItemsPath ...): absent is States.Runtime. */
export function requiredPath(path: string, input: unknown, scope: Scope, field: string): unknown {
  const value = resolve(path, input, scope);
  if (value === undefined) {
    throw runtimeError(
      `Invalid path '${path}' : No results for path: ${field} could not be found in the input`,
    );
  }
  return value;
}

/**
 * A payload template (Parameters, ResultSelector, ItemSelector): a key ending in `.$` takes
 * what its path or intrinsic function gives, under the key without the suffix; objects and
 * arrays are filled in throughout; the rest is kept as written.
 */
export function fillTemplate(template: unknown, input: unknown, scope: Scope): unknown {
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, input, scope));
  if (typeof template !== 'object' || template === null) return template;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template as Record<string, unknown>)) {
    if (!key.endsWith('.$')) {
      out[key] = fillTemplate(value, input, scope);
      continue;
    }
    if (typeof value !== 'string')
      throw runtimeError(`The value of ${key} must be a path or an intrinsic function`);
    out[key.slice(0, -2)] = isIntrinsic(value)
      ? evaluateIntrinsic(value, (path) => resolve(path, input, scope))
      : requiredPath(value, input, scope, key);
  }
  return out;
}

/** InputPath: null makes `{}`. */
export function applyInputPath(path: string | null | undefined, input: unknown, scope: Scope): unknown {
  if (path === null) return {};
  return requiredPath(path ?? '$', input, scope, 'InputPath');
}

/** ResultPath: the result placed in the state's input (`$` replaces it; null discards the result). */
export function applyResultPath(path: string | null | undefined, input: unknown, result: unknown): unknown {
  if (path === null) return input;
  const target = path ?? '$';
  if (target === '$') return result;
  try {
    const base = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
    return writePath(base, target, result);
  } catch (error) {
    throw new StatesError(
      'States.Runtime',
      `Unable to apply ResultPath '${target}': ${(error as Error).message}`,
    );
  }
}

/** OutputPath: null makes `{}`. */
export function applyOutputPath(path: string | null | undefined, output: unknown, scope: Scope): unknown {
  if (path === null) return {};
  return requiredPath(path ?? '$', output, scope, 'OutputPath');
}
