/**
 * EventBridge's event patterns (also Lambda's filter criteria): a pattern object names
 * fields; a nested object descends into the event; a field's array lists matchers, any of
 * which may match (an array in the event matches when any element does). Matchers: a literal
 * (string, number, boolean, null), `prefix`, `suffix` (each plain or `equals-ignore-case`),
 * `equals-ignore-case`, `anything-but` (a literal, a list, or prefix / suffix /
 * equals-ignore-case / wildcard inside), `numeric` (up to two comparisons), `exists`,
 * `wildcard`, `cidr`; `$or` lists alternative patterns at any level.
 */

export type Pattern = Record<string, unknown>;

/** Why a pattern is refused, as EventBridge's InvalidEventPatternException says it. */
export class PatternError extends Error {}

const NUMERIC_OPERATORS = new Set(['<', '<=', '=', '>', '>=']);
const MATCHER_KEYS = new Set([
  'prefix',
  'suffix',
  'equals-ignore-case',
  'anything-but',
  'numeric',
  'exists',
  'wildcard',
  'cidr',
]);

/** Parses (from JSON text) and checks a pattern; throws PatternError naming what is wrong. */
export function parsePattern(source: string | Pattern): Pattern {
  let pattern: unknown = source;
  if (typeof source === 'string') {
    try {
      pattern = JSON.parse(source);
    } catch (error) {
      throw new PatternError(`Event pattern is not valid. Reason: ${(error as Error).message}`);
    }
  }
  if (typeof pattern !== 'object' || pattern === null || Array.isArray(pattern)) {
    throw new PatternError('Event pattern is not valid. Reason: Filter is not an object');
  }
  checkObject(pattern as Pattern, []);
  return pattern as Pattern;
}

function checkObject(pattern: Pattern, path: string[]): void {
  for (const [key, value] of Object.entries(pattern)) {
    const at = [...path, key];
    if (key === '$or') {
      if (!Array.isArray(value) || value.length < 2) {
        throw invalid(at, '$or needs an array of at least two patterns');
      }
      for (const alternative of value) {
        if (typeof alternative !== 'object' || alternative === null || Array.isArray(alternative)) {
          throw invalid(at, 'each $or alternative must be an object');
        }
        checkObject(alternative as Pattern, path);
      }
    } else if (Array.isArray(value)) {
      if (value.length === 0) throw invalid(at, 'Empty arrays are not allowed');
      for (const matcher of value) checkMatcher(matcher, at);
    } else if (typeof value === 'object' && value !== null) {
      checkObject(value as Pattern, at);
    } else {
      throw invalid(at, 'Match value must be String, number, true, false, or null');
    }
  }
}

function checkMatcher(matcher: unknown, at: string[]): void {
  if (matcher === null || ['string', 'number', 'boolean'].includes(typeof matcher)) return;
  if (typeof matcher !== 'object' || Array.isArray(matcher))
    throw invalid(at, 'Match value must be String, number, true, false, or null');
  const entries = Object.entries(matcher as Record<string, unknown>);
  if (entries.length !== 1) throw invalid(at, 'a matcher object holds exactly one match type');
  const [type, operand] = entries[0]!;
  if (!MATCHER_KEYS.has(type)) throw invalid(at, `Unrecognized match type ${type}`);
  switch (type) {
    case 'prefix':
    case 'suffix':
      if (typeof operand === 'string' || isIgnoreCase(operand)) return;
      throw invalid(at, `${type} match pattern must be a string`);
    case 'equals-ignore-case':
    case 'wildcard':
      if (typeof operand === 'string') return;
      throw invalid(at, `${type} match pattern must be a string`);
    case 'exists':
      if (typeof operand === 'boolean') return;
      throw invalid(at, 'exists match pattern must be either true or false.');
    case 'cidr':
      if (typeof operand === 'string' && parseCidr(operand)) return;
      throw invalid(at, 'Malformed CIDR');
    case 'numeric':
      checkNumeric(operand, at);
      return;
    case 'anything-but':
      checkAnythingBut(operand, at);
      return;
  }
}

function checkNumeric(operand: unknown, at: string[]): void {
  if (!Array.isArray(operand) || (operand.length !== 2 && operand.length !== 4)) {
    throw invalid(at, 'Value of numeric must be an array of one or two comparisons.');
  }
  for (let i = 0; i < operand.length; i += 2) {
    if (!NUMERIC_OPERATORS.has(operand[i] as string))
      throw invalid(at, `Unrecognized numeric range operator: ${String(operand[i])}`);
    if (typeof operand[i + 1] !== 'number') throw invalid(at, 'Value of numeric must be a number');
  }
}

function checkAnythingBut(operand: unknown, at: string[]): void {
  if (operand === null || typeof operand === 'string' || typeof operand === 'number') return;
  if (Array.isArray(operand)) {
    if (operand.length === 0) throw invalid(at, 'Empty arrays are not allowed');
    if (operand.every((item) => typeof item === 'string' || typeof item === 'number')) return;
    throw invalid(at, 'Inside anything but list, start|null|boolean is not supported.');
  }
  if (typeof operand === 'object') {
    const entries = Object.entries(operand as Record<string, unknown>);
    const [type, inner] = entries[0] ?? [];
    const allowed = ['prefix', 'suffix', 'equals-ignore-case', 'wildcard'];
    if (entries.length === 1 && allowed.includes(type!)) {
      const list = Array.isArray(inner) ? inner : [inner];
      if (list.length > 0 && list.every((item) => typeof item === 'string')) return;
    }
  }
  throw invalid(at, 'Value of anything-but must be an array or single string/number value.');
}

function invalid(path: string[], reason: string): PatternError {
  return new PatternError(`Event pattern is not valid. Reason: ${reason} at [${path.join('.')}]`);
}

const isIgnoreCase = (operand: unknown): operand is { 'equals-ignore-case': string } =>
  typeof operand === 'object' &&
  operand !== null &&
  typeof (operand as Record<string, unknown>)['equals-ignore-case'] === 'string';

/** Whether the event (any JSON object) matches a pattern already checked by parsePattern. */
export function matchesPattern(pattern: Pattern, event: unknown): boolean {
  return Object.entries(pattern).every(([key, expected]) => {
    if (key === '$or')
      return (expected as Pattern[]).some((alternative) => matchesPattern(alternative, event));
    const present = typeof event === 'object' && event !== null && !Array.isArray(event) && key in event;
    const value = present ? (event as Record<string, unknown>)[key] : undefined;
    if (!Array.isArray(expected)) {
      const objects = Array.isArray(value) ? value : [value];
      return (
        present &&
        objects.some(
          (item) => typeof item === 'object' && item !== null && matchesPattern(expected as Pattern, item),
        )
      );
    }
    return expected.some((matcher) => fieldMatches(matcher, present, value));
  });
}

function fieldMatches(matcher: unknown, present: boolean, value: unknown): boolean {
  if (isExists(matcher)) {
    const leaf =
      present && (typeof value !== 'object' || value === null || (Array.isArray(value) && value.length > 0));
    return matcher.exists === leaf;
  }
  if (!present) return false;
  const values = Array.isArray(value) ? value : [value];
  if (isAnythingBut(matcher)) {
    return (
      values.length > 0 && values.every((item) => !isObject(item) && !excluded(matcher['anything-but'], item))
    );
  }
  return values.some((item) => !isObject(item) && leafMatches(matcher, item));
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;
const isExists = (matcher: unknown): matcher is { exists: boolean } =>
  isObject(matcher) && 'exists' in (matcher as object);
const isAnythingBut = (matcher: unknown): matcher is { 'anything-but': unknown } =>
  isObject(matcher) && 'anything-but' in (matcher as object);

function leafMatches(matcher: unknown, value: unknown): boolean {
  if (!isObject(matcher)) return literalEquals(matcher, value);
  const [type, operand] = Object.entries(matcher as Record<string, unknown>)[0]!;
  switch (type) {
    case 'prefix':
      return typeof value === 'string' && affix(operand, value, (v, p) => v.startsWith(p));
    case 'suffix':
      return typeof value === 'string' && affix(operand, value, (v, s) => v.endsWith(s));
    case 'equals-ignore-case':
      return typeof value === 'string' && value.toLowerCase() === String(operand).toLowerCase();
    case 'wildcard':
      return typeof value === 'string' && wildcard(String(operand), value);
    case 'numeric':
      return typeof value === 'number' && numericHolds(operand as unknown[], value);
    case 'cidr':
      return typeof value === 'string' && inCidr(String(operand), value);
    default:
      return false;
  }
}

function literalEquals(expected: unknown, value: unknown): boolean {
  return typeof expected === 'number' && typeof value === 'number' ? expected === value : expected === value;
}

function affix(operand: unknown, value: string, test: (value: string, affix: string) => boolean): boolean {
  if (typeof operand === 'string') return test(value, operand);
  return test(
    value.toLowerCase(),
    (operand as { 'equals-ignore-case': string })['equals-ignore-case'].toLowerCase(),
  );
}

function excluded(operand: unknown, value: unknown): boolean {
  if (operand === null || typeof operand !== 'object') return literalEquals(operand, value);
  if (Array.isArray(operand)) return operand.some((item) => literalEquals(item, value));
  const [type, inner] = Object.entries(operand as Record<string, unknown>)[0]!;
  const list = (Array.isArray(inner) ? inner : [inner]) as string[];
  return list.some((item) => leafMatches({ [type]: item }, value));
}

function numericHolds(comparisons: unknown[], value: number): boolean {
  for (let i = 0; i < comparisons.length; i += 2) {
    const bound = comparisons[i + 1] as number;
    const holds = {
      '<': value < bound,
      '<=': value <= bound,
      '=': value === bound,
      '>': value > bound,
      '>=': value >= bound,
    }[comparisons[i] as string];
    if (!holds) return false;
  }
  return true;
}

function wildcard(pattern: string, value: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

function parseCidr(cidr: string): { base: number; bits: number } | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const bits = Number(match[5]);
  if (octets.some((octet) => octet > 255) || bits > 32) return undefined;
  return { base: ipv4(octets), bits };
}

function ipv4(octets: number[]): number {
  return octets.reduce((sum, octet) => sum * 256 + octet, 0);
}

function inCidr(cidr: string, address: string): boolean {
  const range = parseCidr(cidr);
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address)?.slice(1).map(Number);
  if (!range || !octets || octets.some((octet) => octet > 255)) return false;
  const size = 2 ** (32 - range.bits);
  return Math.floor(ipv4(octets) / size) === Math.floor(range.base / size);
}
