import { wildcardMatch } from './wildcard.js';

type Compare = (actual: string, expected: string) => boolean;

const number = (text: string): number => (text.trim() === '' ? NaN : Number(text));
const date = (text: string): number => (/^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text));
const numeric =
  (test: (a: number, b: number) => boolean, read = number): Compare =>
  (actual, expected) =>
    test(read(actual), read(expected));

/** Each operator's comparison of the request's value with one value in the policy. */
const POSITIVE: Record<string, Compare> = {
  StringEquals: (a, e) => a === e,
  StringEqualsIgnoreCase: (a, e) => a.toLowerCase() === e.toLowerCase(),
  StringLike: (a, e) => wildcardMatch(e, a, false),
  ArnEquals: (a, e) => wildcardMatch(e, a, false),
  ArnLike: (a, e) => wildcardMatch(e, a, false),
  NumericEquals: numeric((a, b) => a === b),
  NumericLessThan: numeric((a, b) => a < b),
  NumericLessThanEquals: numeric((a, b) => a <= b),
  NumericGreaterThan: numeric((a, b) => a > b),
  NumericGreaterThanEquals: numeric((a, b) => a >= b),
  DateEquals: numeric((a, b) => a === b, date),
  DateLessThan: numeric((a, b) => a < b, date),
  DateLessThanEquals: numeric((a, b) => a <= b, date),
  DateGreaterThan: numeric((a, b) => a > b, date),
  DateGreaterThanEquals: numeric((a, b) => a >= b, date),
  Bool: (a, e) => a.toLowerCase() === e.toLowerCase(),
};

/** The negated operators: true when no policy value matches (and when the key is absent). */
const NEGATED: Record<string, string> = {
  StringNotEquals: 'StringEquals',
  StringNotEqualsIgnoreCase: 'StringEqualsIgnoreCase',
  StringNotLike: 'StringLike',
  ArnNotEquals: 'ArnEquals',
  ArnNotLike: 'ArnLike',
  NumericNotEquals: 'NumericEquals',
  DateNotEquals: 'DateEquals',
};

/**
 * Whether a statement's Condition block holds for the request's keys: every operator, and
 * every key under it, must hold; a key holds when the request's value matches any of the
 * policy's values. `…IfExists` holds when the key is absent; `Null` tests absence itself;
 * an operator the sandbox does not know never holds.
 */
export function conditionHolds(condition: unknown, context: Record<string, string>): boolean {
  if (condition === undefined) return true;
  if (typeof condition !== 'object' || condition === null) return false;
  const lowered = new Map(Object.entries(context).map(([key, value]) => [key.toLowerCase(), value]));
  return Object.entries(condition as Record<string, unknown>).every(([operator, keys]) => {
    if (typeof keys !== 'object' || keys === null) return false;
    return Object.entries(keys as Record<string, unknown>).every(([key, expected]) =>
      operatorHolds(operator, lowered.get(key.toLowerCase()), values(expected)),
    );
  });
}

function operatorHolds(operator: string, actual: string | undefined, expected: string[]): boolean {
  const base = operator.replace(/^For(AnyValue|AllValues):/, '');
  if (base === 'Null')
    return expected.some((value) => (value.toLowerCase() === 'true') === (actual === undefined));
  const ifExists = base.endsWith('IfExists');
  const name = ifExists ? base.slice(0, -'IfExists'.length) : base;
  const negatedOf = NEGATED[name];
  const compare = POSITIVE[negatedOf ?? name];
  if (!compare) return false;
  if (actual === undefined)
    return ifExists || negatedOf !== undefined || operator.startsWith('ForAllValues:');
  const matched = expected.some((value) => compare(actual, value));
  return negatedOf ? !matched : matched;
}

function values(expected: unknown): string[] {
  const all = Array.isArray(expected) ? expected : [expected];
  return all.map((value) => String(value));
}
