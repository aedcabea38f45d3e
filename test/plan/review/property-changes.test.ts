import { describe, expect, it } from 'vitest';
import { formatPath, propertyChanges } from '../../../src/plan/index.js';

describe('propertyChanges', () => {
  it('walks nested objects down to the values that differ', () => {
    const old = { Config: { Retention: { Days: 7, Mode: 'GOVERNANCE' }, Enabled: true }, Name: 'a' };
    const desired = { Config: { Retention: { Days: 30, Mode: 'GOVERNANCE' }, Enabled: true }, Name: 'a' };
    expect(propertyChanges(old, desired)).toEqual([
      { path: ['Config', 'Retention', 'Days'], kind: 'changed', old: 7, new: 30 },
    ]);
  });

  it('adds and removes keys, whole values shown', () => {
    expect(propertyChanges({ A: 1, B: { x: 1 } }, { A: 1, C: [1] })).toEqual([
      { path: ['B'], kind: 'removed', old: { x: 1 } },
      { path: ['C'], kind: 'added', new: [1] },
    ]);
  });

  it('matches array elements, so an inserted one does not show the later ones as changed', () => {
    const old = { Items: ['a', 'b', 'c'] };
    const desired = { Items: ['a', 'x', 'b', 'c'] };
    expect(propertyChanges(old, desired)).toEqual([{ path: ['Items', 1], kind: 'added', new: 'x' }]);
  });

  it('an element changed in place shows its nested path', () => {
    const old = { Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }] };
    const desired = { Statement: [{ Effect: 'Allow', Action: 's3:*', Resource: '*' }] };
    const rows = propertyChanges(old, desired);
    expect(rows).toEqual([
      { path: ['Statement', 0, 'Action'], kind: 'changed', old: 's3:GetObject', new: 's3:*' },
    ]);
    expect(formatPath(rows[0]!.path)).toBe('Statement[0].Action');
  });

  it('elements removed with none added in their place are removed rows', () => {
    expect(propertyChanges({ L: [1, 2, 3] }, { L: [1, 3] })).toEqual([
      { path: ['L', 1], kind: 'removed', old: 2 },
    ]);
  });

  it('keeps `contextLines` unchanged neighbours in objects and arrays', () => {
    const old = { L: [1, 2, 3, 4, 5, 6], M: { a: 1, b: 2, c: 3, d: 4 } };
    const desired = { L: [1, 2, 3, 40, 5, 6], M: { a: 1, b: 2, c: 30, d: 4 } };
    expect(propertyChanges(old, desired, 1)).toEqual([
      { path: ['L', 2], kind: 'context', old: 3, new: 3 },
      { path: ['L', 3], kind: 'changed', old: 4, new: 40 },
      { path: ['L', 4], kind: 'context', old: 5, new: 5 },
      { path: ['M', 'b'], kind: 'context', old: 2, new: 2 },
      { path: ['M', 'c'], kind: 'changed', old: 3, new: 30 },
      { path: ['M', 'd'], kind: 'context', old: 4, new: 4 },
    ]);
    expect(propertyChanges(old, desired, 0).map((row) => row.kind)).toEqual(['changed', 'changed']);
  });

  it('marks rows holding a masked (NoEcho) value, which stays masked', () => {
    expect(propertyChanges({ Password: '***', Port: 1 }, { Password: 'user:***', Port: 1 })).toEqual([
      { path: ['Password'], kind: 'changed', old: '***', new: 'user:***', masked: true },
    ]);
  });

  it('a resource never deployed is diffed against nothing: every property added', () => {
    expect(propertyChanges(undefined, { A: 1, B: { c: 2 } })).toEqual([
      { path: ['A'], kind: 'added', new: 1 },
      { path: ['B'], kind: 'added', new: { c: 2 } },
    ]);
  });

  it('values equal but for key order are unchanged', () => {
    expect(propertyChanges({ A: { x: 1, y: 2 } }, { A: { y: 2, x: 1 } })).toEqual([]);
  });
});
