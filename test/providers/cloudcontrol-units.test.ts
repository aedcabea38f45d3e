import { describe, expect, it } from 'vitest';
import { desiredStatePatch } from '../../src/providers/cloudcontrol/patch.js';
import {
  DEFAULT_DEADLINE_MS,
  pollDeadlineMs,
  pollDelayMs,
} from '../../src/providers/cloudcontrol/polling.js';
import { applyPatch } from '../../src/sandbox/services/cloudcontrol/json-patch.js';

describe('Cloud Control polling schedule (spec 003)', () => {
  it('waits 1 s, ×1.5 each poll, capped at 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(pollDelayMs)).toEqual([
      1000, 1500, 2250, 3375, 5063, 7594, 10000, 10000,
    ]);
  });

  it.each([
    ['AWS::SQS::Queue', 'create', DEFAULT_DEADLINE_MS],
    ['AWS::RDS::DBCluster', 'create', 60 * 60_000],
    ['AWS::RDS::DBCluster', 'update', DEFAULT_DEADLINE_MS],
    ['AWS::OpenSearchService::Domain', 'update', 60 * 60_000],
    ['AWS::ElastiCache::ReplicationGroup', 'delete', 60 * 60_000],
  ] as const)('deadline for %s %s', (type, operation, ms) => {
    expect(pollDeadlineMs(type, operation)).toBe(ms);
  });
});

describe('desiredStatePatch', () => {
  it.each([
    ['no change', { A: 1, B: { c: [1] } }, { A: 1, B: { c: [1] } }, []],
    ['added', {}, { A: 1 }, [{ op: 'add', path: '/A', value: 1 }]],
    ['removed', { A: 1 }, {}, [{ op: 'remove', path: '/A' }]],
    [
      'changed deep inside: set whole',
      { B: { c: [1], d: 2 } },
      { B: { c: [2], d: 2 } },
      [{ op: 'add', path: '/B', value: { c: [2], d: 2 } }],
    ],
    ['a key needing escapes', { 'a/b~c': 1 }, { 'a/b~c': 2 }, [{ op: 'add', path: '/a~1b~0c', value: 2 }]],
  ])('%s', (_, previous, next, patch) => {
    expect(desiredStatePatch(previous, next)).toEqual(patch);
  });

  it('turns the previous state into the next when the sandbox applies it', () => {
    const previous = { Name: 'x', Tags: [{ Key: 'a', Value: '1' }], Old: true, 'a/b': 1 };
    const next = { Name: 'x', Tags: [{ Key: 'a', Value: '2' }], New: { deep: [1, 2] }, 'a/b': 2 };
    expect(applyPatch(previous, desiredStatePatch(previous, next))).toEqual(next);
  });
});

describe('the sandbox JSON patch applier', () => {
  it.each([
    ['array append', { A: [1] }, [{ op: 'add', path: '/A/-', value: 2 }], { A: [1, 2] }],
    ['array insert', { A: [1, 3] }, [{ op: 'add', path: '/A/1', value: 2 }], { A: [1, 2, 3] }],
    ['move', { A: 1 }, [{ op: 'move', from: '/A', path: '/B' }], { B: 1 }],
    ['copy', { A: { x: 1 } }, [{ op: 'copy', from: '/A', path: '/B' }], { A: { x: 1 }, B: { x: 1 } }],
    [
      'test then replace',
      { A: 1 },
      [
        { op: 'test', path: '/A', value: 1 },
        { op: 'replace', path: '/A', value: 2 },
      ],
      { A: 2 },
    ],
  ] as const)('%s', (_, document, patch, result) => {
    expect(applyPatch(document, patch as never)).toEqual(result);
  });

  it.each([
    ['replace of a missing path', { A: 1 }, [{ op: 'replace', path: '/B', value: 2 }]],
    ['remove of a missing path', { A: 1 }, [{ op: 'remove', path: '/B' }]],
    ['a failed test', { A: 1 }, [{ op: 'test', path: '/A', value: 2 }]],
  ] as const)('refuses %s', (_, document, patch) => {
    expect(() => applyPatch(document, patch as never)).toThrow();
  });
});
