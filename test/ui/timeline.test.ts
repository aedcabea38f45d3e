import { describe, expect, it } from 'vitest';
import { runTimeline, runTimelines, type Dependencies, type TimelineEvent } from '../../src/ui/timeline.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function op(logicalId: string, start: number, end: number, action = 'create', runId = 'r1'): TimelineEvent {
  const prefix = action === 'delete' ? 'DELETE' : action === 'create' ? 'CREATE' : 'UPDATE';
  return { runId, logicalId, action, status: `${prefix}_COMPLETE`, startedAt: at(start), timestamp: at(end) };
}

describe('runTimeline', () => {
  it.each<{ name: string; events: TimelineEvent[]; deps: Dependencies; path: string[] }>([
    {
      name: 'a chain beats a long independent operation that ends sooner',
      events: [op('A', 0, 100), op('B', 100, 300), op('C', 300, 350), op('D', 0, 320)],
      deps: { B: ['A'], C: ['B'] },
      path: ['A', 'B', 'C'],
    },
    {
      name: 'the longer of two dependencies is the path',
      events: [op('A', 0, 100), op('X', 0, 250), op('B', 250, 300)],
      deps: { B: ['A', 'X'] },
      path: ['X', 'B'],
    },
    {
      name: 'deletes run dependents first, so the path follows dependents',
      events: [op('B', 0, 200, 'delete'), op('A', 200, 260, 'delete')],
      deps: { B: ['A'] },
      path: ['B', 'A'],
    },
    {
      name: 'time queued counts: the chain that ended last, though it ran for less',
      events: [op('A', 0, 100), op('B', 200, 250), op('X', 0, 220)],
      deps: { B: ['A'] },
      path: ['A', 'B'],
    },
    {
      name: 'an operation with no recorded dependency is a path of one',
      events: [op('A', 0, 100), op('B', 10, 500)],
      deps: {},
      path: ['B'],
    },
  ])('critical path: $name', ({ events, deps, path }) => {
    expect(runTimeline('r1', events, deps).criticalPath).toEqual(path);
  });

  it('splits waiting for dependencies from queueing and measures from the first start', () => {
    const run = runTimeline('r1', [op('A', 1000, 1100), op('B', 1150, 1400)], { B: ['A'] });
    expect(run.durationMs).toBe(400);
    expect(run.startedAt).toBe(at(1000));
    const b = run.bars.find((bar) => bar.logicalId === 'B')!;
    expect([b.start, b.end, b.waitedForDependencies, b.queued]).toEqual([150, 400, 100, 50]);
  });

  it('carries the time spent retrying onto the bar', () => {
    const run = runTimeline('r1', [{ ...op('A', 0, 500), retryMs: 300 }], {});
    expect(run.bars[0]!.retrying).toBe(300);
  });

  it('keeps stack-level events as notes and marks failed operations', () => {
    const failed: TimelineEvent = { ...op('A', 0, 50), status: 'CREATE_FAILED', reason: 'AccessDenied' };
    const note: TimelineEvent = { runId: 'r1', status: 'ROLLBACK_COMPLETE', timestamp: at(60) };
    const run = runTimeline('r1', [failed, note], {});
    expect(run.bars[0]).toMatchObject({ failed: true, reason: 'AccessDenied' });
    expect(run.notes).toEqual([note]);
  });
});

describe('runTimelines', () => {
  it('groups by run, most recent first', () => {
    const runs = runTimelines([op('A', 0, 10, 'create', 'first'), op('A', 50, 60, 'update', 'second')], {});
    expect(runs.map((run) => run.runId)).toEqual(['second', 'first']);
  });
});
