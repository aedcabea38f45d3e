import { describe, expect, it } from 'vitest';
import { matchesPattern, parsePattern, PatternError } from '../../../src/sandbox/patterns/event-pattern.js';

const event = {
  source: 'com.shop.orders',
  'detail-type': 'Order Placed',
  account: '111111111111',
  resources: ['arn:aws:s3:::uploads', 'arn:aws:s3:::archive'],
  detail: {
    orderId: 'o-17',
    total: 42.5,
    items: 3,
    priority: null,
    express: true,
    customer: { tier: 'Gold', email: 'ANA@Example.com', ip: '10.0.1.7' },
    tags: ['new', 'gift'],
    file: 'report-2030.csv',
  },
};

// One case per rule of the grammar: [rule, pattern, matches the event above].
const cases: Array<[string, object, boolean]> = [
  ['a literal string equals', { source: ['com.shop.orders'] }, true],
  ['a literal string that differs', { source: ['com.shop.refunds'] }, false],
  ['any listed value may match', { source: ['x', 'com.shop.orders'] }, true],
  ['a literal number equals numerically', { detail: { total: [42.5] } }, true],
  ['a string never equals a number', { detail: { items: ['3'] } }, false],
  ['a boolean literal', { detail: { express: [true] } }, true],
  ['null matches a null value', { detail: { priority: [null] } }, true],
  ['null does not match an absent field', { detail: { coupon: [null] } }, false],
  ['an event array matches when any element does', { resources: ['arn:aws:s3:::archive'] }, true],
  ['nested objects descend', { detail: { customer: { tier: ['Gold'] } } }, true],
  ['every field must match', { source: ['com.shop.orders'], 'detail-type': ['Order Shipped'] }, false],
  ['an absent field fails a literal', { detail: { coupon: ['SAVE'] } }, false],
  ['prefix', { source: [{ prefix: 'com.shop.' }] }, true],
  ['prefix that differs', { source: [{ prefix: 'org.' }] }, false],
  [
    'prefix ignoring case',
    { detail: { customer: { tier: [{ prefix: { 'equals-ignore-case': 'GO' } }] } } },
    true,
  ],
  ['suffix', { detail: { file: [{ suffix: '.csv' }] } }, true],
  ['suffix ignoring case', { detail: { file: [{ suffix: { 'equals-ignore-case': '.CSV' } }] } }, true],
  [
    'equals-ignore-case',
    { detail: { customer: { email: [{ 'equals-ignore-case': 'ana@example.COM' }] } } },
    true,
  ],
  ['anything-but a literal', { detail: { customer: { tier: [{ 'anything-but': 'Silver' }] } } }, true],
  ['anything-but the value itself', { detail: { customer: { tier: [{ 'anything-but': 'Gold' }] } } }, false],
  ['anything-but a list', { source: [{ 'anything-but': ['a', 'com.shop.orders'] }] }, false],
  ['anything-but a number', { detail: { items: [{ 'anything-but': 4 }] } }, true],
  ['anything-but a prefix', { source: [{ 'anything-but': { prefix: 'com.' } }] }, false],
  ['anything-but a suffix', { detail: { file: [{ 'anything-but': { suffix: '.json' } }] } }, true],
  [
    'anything-but ignoring case',
    { detail: { customer: { tier: [{ 'anything-but': { 'equals-ignore-case': ['GOLD'] } }] } } },
    false,
  ],
  ['anything-but a wildcard', { detail: { file: [{ 'anything-but': { wildcard: 'report-*' } }] } }, false],
  [
    'anything-but on an array needs every element outside',
    { detail: { tags: [{ 'anything-but': 'gift' }] } },
    false,
  ],
  ['anything-but fails an absent field', { detail: { coupon: [{ 'anything-but': 'x' }] } }, false],
  ['numeric range', { detail: { total: [{ numeric: ['>', 40, '<=', 50] }] } }, true],
  ['numeric outside the range', { detail: { total: [{ numeric: ['<', 40] }] } }, false],
  ['numeric equals', { detail: { items: [{ numeric: ['=', 3] }] } }, true],
  ['numeric never matches a string', { detail: { orderId: [{ numeric: ['>', 0] }] } }, false],
  ['exists true on a present leaf', { detail: { orderId: [{ exists: true }] } }, true],
  ['exists true on an absent field', { detail: { coupon: [{ exists: true }] } }, false],
  ['exists false on an absent field', { detail: { coupon: [{ exists: false }] } }, true],
  ['exists false on a present leaf', { detail: { orderId: [{ exists: false }] } }, false],
  ['wildcard', { detail: { file: [{ wildcard: 'report-*.csv' }] } }, true],
  ['wildcard that differs', { detail: { file: [{ wildcard: '*.json' }] } }, false],
  ['cidr holding the address', { detail: { customer: { ip: [{ cidr: '10.0.0.0/16' }] } } }, true],
  ['cidr not holding it', { detail: { customer: { ip: [{ cidr: '10.1.0.0/16' }] } } }, false],
  ['$or: one alternative matching', { $or: [{ source: ['x'] }, { detail: { items: [3] } }] }, true],
  ['$or: none matching', { $or: [{ source: ['x'] }, { detail: { items: [4] } }] }, false],
  [
    '$or nested beside other fields',
    { source: ['com.shop.orders'], detail: { $or: [{ items: [9] }, { express: [true] }] } },
    true,
  ],
  ['an empty pattern matches everything', {}, true],
];

describe('event patterns: one case per rule', () => {
  it.each(cases)('%s', (_rule, pattern, expected) => {
    expect(matchesPattern(parsePattern(JSON.stringify(pattern)), event)).toBe(expected);
  });
});

describe('event patterns refused, with the reason', () => {
  it.each<[string, unknown, string]>([
    ['not JSON', '{source:', 'Event pattern is not valid'],
    ['not an object', '[1]', 'Filter is not an object'],
    ['a bare value instead of an array', { source: 'com.shop' }, 'Match value must be'],
    ['an empty array', { source: [] }, 'Empty arrays are not allowed'],
    ['an unknown match type', { source: [{ startsWith: 'a' }] }, 'Unrecognized match type startsWith'],
    [
      'a numeric operator it does not know',
      { n: [{ numeric: ['!=', 1] }] },
      'Unrecognized numeric range operator',
    ],
    ['a numeric bound that is not a number', { n: [{ numeric: ['>', '1'] }] }, 'must be a number'],
    ['exists that is not a boolean', { n: [{ exists: 'yes' }] }, 'either true or false'],
    ['a malformed CIDR', { ip: [{ cidr: '10.0.0/8' }] }, 'Malformed CIDR'],
    ['$or with one alternative', { $or: [{ a: [1] }] }, '$or needs'],
    ['anything-but with an object list', { a: [{ 'anything-but': [{ b: 1 }] }] }, 'anything but list'],
  ])('%s', (_rule, pattern, reason) => {
    const text = typeof pattern === 'string' ? pattern : JSON.stringify(pattern);
    expect(() => parsePattern(text)).toThrow(PatternError);
    expect(() => parsePattern(text)).toThrow(reason);
  });
});
