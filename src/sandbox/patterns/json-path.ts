/**
 * JSONPath as EventBridge and Step Functions read it: `$`, `.name`, `['name']`, `[n]`
 * (negative from the end), `[*]` / `.*`, `[a,b]` (names or indexes), `[start:end]`,
 * `..name` (any depth) and `[?(@.key op value)]` filters (==, !=, <, <=, >, >=, or a bare
 * `@.key` for presence). A path with a wildcard, slice, union, filter or `..` is
 * indefinite: it reads a list of what it found.
 */

export class JsonPathError extends Error {}

type Step =
  | { kind: 'name'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'union'; keys: Array<string | number> }
  | { kind: 'slice'; start?: number; end?: number }
  | { kind: 'descend'; name: string | '*' }
  | { kind: 'filter'; key: string[]; op?: string; value?: unknown };

const cache = new Map<string, Step[]>();

/** The steps of a path; throws JsonPathError for one that is not JSONPath. */
export function parsePath(path: string): Step[] {
  const cached = cache.get(path);
  if (cached) return cached;
  if (!path.startsWith('$')) throw new JsonPathError(`The path '${path}' does not start with '$'`);
  const steps: Step[] = [];
  let at = 1;
  const fail = (): never => {
    throw new JsonPathError(`The path '${path}' is not valid JSONPath (at character ${at + 1})`);
  };
  while (at < path.length) {
    if (path.startsWith('..', at)) {
      at += 2;
      const name = /^(\*|[^.[\]]+)/.exec(path.slice(at))?.[1] ?? fail();
      steps.push({ kind: 'descend', name });
      at += name.length;
    } else if (path[at] === '.') {
      at += 1;
      const name = /^(\*|[^.[\]]+)/.exec(path.slice(at))?.[1] ?? fail();
      steps.push(name === '*' ? { kind: 'wildcard' } : { kind: 'name', name });
      at += name.length;
    } else if (path[at] === '[') {
      const close = closingBracket(path, at) ?? fail();
      steps.push(bracketStep(path.slice(at + 1, close).trim()) ?? fail());
      at = close + 1;
    } else fail();
  }
  cache.set(path, steps);
  return steps;
}

function closingBracket(path: string, open: number): number | undefined {
  let quote: string | undefined;
  let depth = 0;
  for (let i = open; i < path.length; i += 1) {
    const char = path[i]!;
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '[' || char === '(') depth += 1;
    else if (char === ']' || char === ')') {
      depth -= 1;
      if (depth === 0 && char === ']') return i;
    }
  }
  return undefined;
}

function bracketStep(inner: string): Step | undefined {
  if (inner === '*') return { kind: 'wildcard' };
  if (inner.startsWith('?(') && inner.endsWith(')')) return filterStep(inner.slice(2, -1).trim());
  const slice = /^(-?\d*):(-?\d*)$/.exec(inner);
  if (slice) {
    return {
      kind: 'slice',
      ...(slice[1] !== '' ? { start: Number(slice[1]) } : {}),
      ...(slice[2] !== '' ? { end: Number(slice[2]) } : {}),
    };
  }
  const keys = inner.split(',').map((part) => key(part.trim()));
  if (keys.some((k) => k === undefined)) return undefined;
  if (keys.length > 1) return { kind: 'union', keys: keys as Array<string | number> };
  const only = keys[0]!;
  return typeof only === 'number' ? { kind: 'index', index: only } : { kind: 'name', name: only };
}

function key(part: string): string | number | undefined {
  if (/^-?\d+$/.test(part)) return Number(part);
  const quoted = /^'((?:[^'\\]|\\.)*)'$|^"((?:[^"\\]|\\.)*)"$/.exec(part);
  if (quoted) return (quoted[1] ?? quoted[2]!).replace(/\\(.)/g, '$1');
  return undefined;
}

function filterStep(expression: string): Step | undefined {
  const match = /^@((?:\.[^.\s=!<>]+)+)\s*(?:(==|!=|<=|>=|<|>)\s*(.+))?$/.exec(expression);
  if (!match) return undefined;
  const keyPath = match[1]!.slice(1).split('.');
  if (match[2] === undefined) return { kind: 'filter', key: keyPath };
  const text = match[3]!.trim();
  let value: unknown;
  if (/^'.*'$/.test(text)) value = text.slice(1, -1);
  else {
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return { kind: 'filter', key: keyPath, op: match[2], value };
}

/** Whether reading the path can yield several values (a list). */
export function isIndefinite(path: string): boolean {
  return parsePath(path).some((step) => !['name', 'index'].includes(step.kind));
}

/**
 * What the path reads: a definite path's value (undefined when absent), an indefinite
 * path's list of matches.
 */
export function readPath(document: unknown, path: string): unknown {
  const steps = parsePath(path);
  let current: unknown[] = [document];
  for (const step of steps) current = current.flatMap((node) => apply(step, node));
  return isIndefinite(path) ? current : current[0];
}

function apply(step: Step, node: unknown): unknown[] {
  const isObject = typeof node === 'object' && node !== null;
  switch (step.kind) {
    case 'name':
      return isObject && !Array.isArray(node) && Object.hasOwn(node, step.name)
        ? [(node as Record<string, unknown>)[step.name]]
        : [];
    case 'index': {
      if (!Array.isArray(node)) return [];
      const index = step.index < 0 ? node.length + step.index : step.index;
      return index >= 0 && index < node.length ? [node[index]] : [];
    }
    case 'wildcard':
      return isObject ? Object.values(node as object) : [];
    case 'union':
      return step.keys.flatMap((k) =>
        apply(typeof k === 'number' ? { kind: 'index', index: k } : { kind: 'name', name: k }, node),
      );
    case 'slice': {
      if (!Array.isArray(node)) return [];
      return node.slice(step.start ?? 0, step.end ?? node.length);
    }
    case 'descend':
      return descendants(node).flatMap((item) =>
        step.name === '*'
          ? apply({ kind: 'wildcard' }, item)
          : apply({ kind: 'name', name: step.name }, item),
      );
    case 'filter': {
      const items = Array.isArray(node) ? node : isObject ? Object.values(node as object) : [];
      return items.filter((item) => filterHolds(step, item));
    }
  }
}

function descendants(node: unknown): unknown[] {
  if (typeof node !== 'object' || node === null) return [];
  return [node, ...Object.values(node).flatMap(descendants)];
}

function filterHolds(step: Extract<Step, { kind: 'filter' }>, item: unknown): boolean {
  let value: unknown = item;
  for (const name of step.key) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return false;
    value = (value as Record<string, unknown>)[name];
  }
  if (step.op === undefined) return true;
  const expected = step.value;
  switch (step.op) {
    case '==':
      return value === expected;
    case '!=':
      return value !== expected;
    case '<':
      return (value as number) < (expected as number);
    case '<=':
      return (value as number) <= (expected as number);
    case '>':
      return (value as number) > (expected as number);
    default:
      return (value as number) >= (expected as number);
  }
}

/**
 * A copy of `document` with `value` at a definite path (Step Functions' ResultPath):
 * missing objects on the way are made; `$` replaces the whole document.
 */
export function writePath(document: unknown, path: string, value: unknown): unknown {
  const steps = parsePath(path);
  if (steps.length === 0) return value;
  if (steps.some((step) => step.kind !== 'name' && step.kind !== 'index')) {
    throw new JsonPathError(`The path '${path}' must be definite to write to`);
  }
  const root: unknown = structuredClone(document ?? {});
  if (typeof root !== 'object' || root === null) {
    throw new JsonPathError(`Cannot write '${path}' into a value that is not an object`);
  }
  let node = root as Record<string | number, unknown>;
  steps.forEach((step, i) => {
    const k = step.kind === 'name' ? step.name : (step as { index: number }).index;
    if (i === steps.length - 1) {
      node[k] = value;
      return;
    }
    const next = node[k];
    if (typeof next !== 'object' || next === null) node[k] = {};
    node = node[k] as Record<string | number, unknown>;
  });
  return root;
}
