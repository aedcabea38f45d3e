import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hasLegacyEmptyHash, propertyHash } from '../../src/plan/property-hash.js';

describe('canonical JSON (spec 004: sha256 of the resolved property map)', () => {
  it.each([
    ['keys sorted', { b: 1, a: 2 }, '{"a":2,"b":1}'],
    ['keys sorted recursively', { z: { y: 1, x: [{ d: 1, c: 2 }] } }, '{"z":{"x":[{"c":2,"d":1}],"y":1}}'],
    ['arrays kept in order', { a: [3, 1, 2] }, '{"a":[3,1,2]}'],
    ['undefined members dropped', { a: undefined, b: 1 }, '{"b":1}'],
    ['undefined in an array is null, as in JSON', { a: [undefined, 1] }, '{"a":[null,1]}'],
    ['null kept', { a: null }, '{"a":null}'],
    ['a map of only undefined members is empty', { a: undefined, b: { c: undefined } }, '{"b":{}}'],
    ['empty maps and lists kept', { a: {}, b: [] }, '{"a":{},"b":[]}'],
    ['the first member undefined, no leading comma', { a: undefined, b: 1, c: 2 }, '{"b":1,"c":2}'],
    [
      'numbers and booleans as JSON writes them',
      { a: 1.5, b: true, c: 1e21 },
      '{"a":1.5,"b":true,"c":1e+21}',
    ],
    ['strings escaped', { 'k"': 'v\n' }, '{"k\\"":"v\\n"}'],
    [
      'an unresolved dynamic reference is a string',
      { p: '{{resolve:ssm:/x}}' },
      '{"p":"{{resolve:ssm:/x}}"}',
    ],
  ])('%s', (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('hashes the canonical JSON with sha256 (hex)', () => {
    const expected = createHash('sha256').update('{"a":2,"b":1}').digest('hex');
    expect(propertyHash({ b: 1, a: 2 })).toBe(expected);
  });

  it('gives maps differing only in key order the same hash, and any value change another', () => {
    expect(propertyHash({ a: { x: 1, y: 2 }, b: [1] })).toBe(propertyHash({ b: [1], a: { y: 2, x: 1 } }));
    expect(propertyHash({ a: [1, 2] })).not.toBe(propertyHash({ a: [2, 1] }));
    expect(propertyHash({ a: '1' })).not.toBe(propertyHash({ a: 1 }));
  });
});

describe('legacy empty hashes (spec 004)', () => {
  it.each([
    ['a record written before property-hash tracking (no hash)', undefined, true],
    ['an empty hash', '', true],
    ['a recorded hash', propertyHash({}), false],
  ])('%s', (_name, hash, legacy) => {
    expect(hasLegacyEmptyHash(hash)).toBe(legacy);
  });
});
