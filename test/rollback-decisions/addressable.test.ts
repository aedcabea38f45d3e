import { describe, expect, it } from 'vitest';
import { isAddressable } from '../../src/rollback-decisions/addressable.js';

// Spec 000, "An operation cdkd cannot address": "its state record's physicalId ... is absent,
// empty, whitespace-only or not a string".
describe('isAddressable', () => {
  it.each([
    { rule: 'absent', id: undefined },
    { rule: 'absent (null in a hand-edited file)', id: null },
    { rule: 'empty', id: '' },
    { rule: 'whitespace-only', id: ' \t\n' },
    { rule: 'not a string (a number)', id: 42 },
    { rule: 'not a string (an object)', id: { Ref: 'Queue' } },
  ])('cannot address a physicalId that is $rule', ({ id }) => {
    expect(isAddressable(id)).toBe(false);
  });

  it('addresses any other string', () => {
    expect(isAddressable('my-stream')).toBe(true);
  });
});
