import { describe, expect, it } from 'vitest';
import { criticalPath, remainingMs, type EtaNode, type EtaProgress } from '../../src/eta/index.js';

/** `A:3 B:2<A C:5` → A takes 3, B takes 2 after A, C takes 5. */
function dag(spec: string): EtaNode[] {
  return spec.split(' ').map((part) => {
    const [head, deps] = part.split('<') as [string, string | undefined];
    const [id, ms] = head.split(':') as [string, string];
    return { id, durationMs: Number(ms), dependsOn: deps ? deps.split(',') : [] };
  });
}

function progress(done: string[] = [], inFlight: Record<string, number> = {}): EtaProgress {
  return { done: new Set(done), inFlight: new Map(Object.entries(inFlight)) };
}

describe('criticalPath', () => {
  it.each([
    ['nothing to do', '', undefined, 0, []],
    ['one operation', 'A:3', undefined, 3, ['A']],
    ['independent: the longest alone', 'A:3 B:7 C:5', undefined, 7, ['B']],
    ['a chain: the sum', 'A:3 B:2<A C:4<B', undefined, 9, ['A', 'B', 'C']],
    ['a diamond: the longer branch', 'A:1 B:5<A C:2<A D:1<B,C', undefined, 7, ['A', 'B', 'D']],
    ['a dependency outside the list is ignored', 'A:2<Z', undefined, 2, ['A']],
    ['a finished operation takes nothing', 'A:3 B:2<A', progress(['A']), 2, ['A', 'B']],
    ['an in-flight operation: what is left of it', 'A:3 B:2<A', progress([], { A: 1 }), 4, ['A', 'B']],
    ['one past its estimate: expected to end now', 'A:3 B:2<A', progress([], { A: 10 }), 2, ['A', 'B']],
    ['progress moves the critical path', 'A:5 B:4 C:1<B', progress([], { A: 4 }), 5, ['B', 'C']],
  ] as const)('%s', (_, spec, at, total, path) => {
    const nodes = spec === '' ? [] : dag(spec);
    const result = criticalPath(nodes, at);
    expect(result.totalMs).toBe(total);
    expect(result.path.map((step) => step.id)).toEqual(path);
  });

  it('names each step of the path with its expected time', () => {
    expect(criticalPath(dag('A:3 B:2<A')).path).toEqual([
      { id: 'A', durationMs: 3 },
      { id: 'B', durationMs: 2 },
    ]);
  });

  it('walks a chain of 10,000 without overflowing the stack', () => {
    const nodes = Array.from({ length: 10_000 }, (_, i) => ({
      id: `N${i}`,
      durationMs: 1,
      dependsOn: i === 0 ? [] : [`N${i - 1}`],
    }));
    expect(criticalPath(nodes.reverse()).totalMs).toBe(10_000);
  });
});

describe('remainingMs', () => {
  it.each([
    ['deep: the critical path', 'A:3 B:3<A C:3<B', progress(), 2, 9],
    ['wide: the work over the slots', 'A:4 B:4 C:4 D:4', progress(), 2, 8],
    ['wide, enough slots: the critical path', 'A:4 B:4 C:4 D:4', progress(), 10, 4],
    ['what is done and in flight is not counted again', 'A:4 B:4 C:4 D:4', progress(['A'], { B: 3 }), 2, 4.5],
    ['all done', 'A:4 B:4<A', progress(['A', 'B']), 10, 0],
  ] as const)('%s', (_, spec, at, concurrency, expected) => {
    expect(remainingMs(dag(spec), at, concurrency)).toBe(expected);
  });
});
