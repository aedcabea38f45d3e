import { describe, expect, it } from 'vitest';
import { updateTags } from '../../src/providers/tag-updates.js';

const tags = (entries: Record<string, unknown>) =>
  Object.entries(entries).map(([Key, Value]) => ({ Key, Value }));

describe('updateTags', () => {
  it.each([
    { row: 'no tags before or after', before: undefined, after: undefined, calls: [] },
    { row: 'unchanged tags', before: tags({ a: '1' }), after: tags({ a: '1' }), calls: [] },
    { row: 'a tag added', before: tags({}), after: tags({ a: '1' }), calls: [['tag', { a: '1' }]] },
    {
      row: 'a value changed',
      before: tags({ a: '1' }),
      after: tags({ a: '2' }),
      calls: [['tag', { a: '2' }]],
    },
    { row: 'a number value as text', before: undefined, after: tags({ n: 3 }), calls: [['tag', { n: '3' }]] },
    {
      row: 'a tag removed',
      before: tags({ a: '1', b: '2' }),
      after: tags({ a: '1' }),
      calls: [['untag', ['b']]],
    },
    {
      row: 'removed, then added and changed',
      before: tags({ a: '1', b: '2' }),
      after: tags({ b: '3', c: '4' }),
      calls: [
        ['untag', ['a']],
        ['tag', { b: '3', c: '4' }],
      ],
    },
  ])('$row', async ({ before, after, calls }) => {
    const made: unknown[] = [];
    await updateTags(before, after, {
      tag: async (set) => made.push(['tag', set]),
      untag: async (keys) => made.push(['untag', keys]),
    });
    expect(made).toEqual(calls);
  });
});
