import { resolve, type Scope } from './payload.js';

type Rule = Record<string, unknown>;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether a JSONPath Choice rule (And, Or, Not, or a comparison on `Variable`) holds. */
export function ruleHolds(rule: Rule, input: unknown, scope: Scope): boolean {
  if (Array.isArray(rule.And)) return (rule.And as Rule[]).every((r) => ruleHolds(r, input, scope));
  if (Array.isArray(rule.Or)) return (rule.Or as Rule[]).some((r) => ruleHolds(r, input, scope));
  if (rule.Not) return !ruleHolds(rule.Not as Rule, input, scope);
  const value = resolve(String(rule.Variable), input, scope);
  for (const [operator, operand] of Object.entries(rule)) {
    if (operator === 'Variable' || operator === 'Next') continue;
    const expected = operator.endsWith('Path') ? resolve(String(operand), input, scope) : operand;
    return compare(operator.replace(/Path$/, ''), value, expected);
  }
  return false;
}

function compare(operator: string, value: unknown, expected: unknown): boolean {
  switch (operator) {
    case 'IsPresent':
      return (value !== undefined) === expected;
    case 'IsNull':
      return (value === null) === expected;
    case 'IsNumeric':
      return (typeof value === 'number') === expected;
    case 'IsString':
      return (typeof value === 'string') === expected;
    case 'IsBoolean':
      return (typeof value === 'boolean') === expected;
    case 'IsTimestamp':
      return (typeof value === 'string' && TIMESTAMP.test(value)) === expected;
    case 'BooleanEquals':
      return typeof value === 'boolean' && value === expected;
    case 'StringMatches':
      return typeof value === 'string' && typeof expected === 'string' && globMatches(expected, value);
  }
  const kind = operator.startsWith('String')
    ? 'string'
    : operator.startsWith('Numeric')
      ? 'number'
      : 'timestamp';
  const comparison = operator.replace(/^(String|Numeric|Timestamp)/, '');
  let a: number | string;
  let b: number | string;
  if (kind === 'number') {
    if (typeof value !== 'number' || typeof expected !== 'number') return false;
    [a, b] = [value, expected];
  } else if (kind === 'string') {
    if (typeof value !== 'string' || typeof expected !== 'string') return false;
    [a, b] = [value, expected];
  } else {
    if (typeof value !== 'string' || typeof expected !== 'string' || !TIMESTAMP.test(value)) return false;
    [a, b] = [Date.parse(value), Date.parse(expected)];
  }
  switch (comparison) {
    case 'Equals':
      return a === b;
    case 'LessThan':
      return a < b;
    case 'LessThanEquals':
      return a <= b;
    case 'GreaterThan':
      return a > b;
    case 'GreaterThanEquals':
      return a >= b;
    default:
      return false;
  }
}

/** StringMatches: `*` any run of characters, `\*` a literal star. */
function globMatches(pattern: string, value: string): boolean {
  const source = pattern
    .split(/(\\\*|\*)/)
    .map((part) =>
      part === '*' ? '.*' : part === '\\*' ? '\\*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`, 's').test(value);
}
