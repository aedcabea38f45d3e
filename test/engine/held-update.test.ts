import { describe, expect, it } from 'vitest';
import { heldUpdate } from '../../src/engine/journal/held-update.js';

// What a live read says about an update a rollback may have reverted before its state save.
const rows: Array<
  [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, string[], string]
> = [
  ['AWS holds the value the update set', { T: 30 }, { T: 60 }, { T: '60' }, [], 'applied'],
  ['AWS holds the value from before the update', { T: 30 }, { T: 60 }, { T: '30' }, [], 'reverted'],
  ['AWS holds a third value', { T: 30 }, { T: 60 }, { T: '45' }, [], 'reverted'],
  [
    'an unchanged property that drifted does not count',
    { T: 30, D: 1 },
    { T: 60, D: 1 },
    { T: 60, D: 2 },
    [],
    'applied',
  ],
  ['a property the update added, which AWS lacks', {}, { T: 60 }, {}, [], 'reverted'],
  ['only a masked value changed: nothing to compare', { S: 'a' }, { S: '***' }, { S: 'b' }, [], 'unknown'],
  [
    'only a write-only property changed: nothing to compare',
    { Code: 'a' },
    { Code: 'b' },
    {},
    ['Code'],
    'unknown',
  ],
  ['the update changed nothing comparable', { T: 30 }, { T: 30 }, { T: 30 }, [], 'unknown'],
];

describe('heldUpdate', () => {
  it.each(rows)('%s', (_, before, after, live, writeOnly, expected) => {
    expect(heldUpdate(before, after, live, writeOnly)).toBe(expected);
  });
});
