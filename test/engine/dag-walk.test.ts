import { describe, expect, it } from 'vitest';
import { walkDag, type WalkNode } from '../../src/dag/walk.js';

/** Tasks that finish when the test says so, recording their start order. */
function controllableTasks() {
  const started: string[] = [];
  const pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const run = (id: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(id);
      pending.set(id, { resolve, reject });
    });
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return {
    run,
    started,
    async complete(id: string) {
      await tick();
      pending.get(id)!.resolve();
      await tick();
    },
    async fail(id: string) {
      await tick();
      pending.get(id)!.reject(new Error(`${id} broke`));
      await tick();
    },
  };
}

const flat = (ids: string[]): WalkNode[] => ids.map((id) => ({ id, dependsOn: [] }));

describe('walkDag', () => {
  it('starts a task the moment its own dependencies finish, without waiting for its level', async () => {
    // A → C; B (slow) is on the same level as A, but C must not wait for B.
    const tasks = controllableTasks();
    const nodes: WalkNode[] = [
      { id: 'A', dependsOn: [] },
      { id: 'B', dependsOn: [] },
      { id: 'C', dependsOn: ['A'] },
    ];
    const walk = walkDag(nodes, tasks.run, { concurrency: 10, priority: () => 0 });
    await tasks.complete('A');
    expect(tasks.started).toEqual(['A', 'B', 'C']);
    await tasks.complete('C');
    await tasks.complete('B');
    expect((await walk).succeeded).toEqual(['A', 'C', 'B']);
  });

  it('never runs more than the concurrency limit', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `R${i}`);
    let running = 0;
    let peak = 0;
    const outcome = await walkDag(
      flat(ids),
      async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running -= 1;
      },
      { concurrency: 3, priority: () => 0 },
    );
    expect(peak).toBe(3);
    expect(outcome.succeeded).toHaveLength(20);
  });

  it('when more are ready than slots, the highest priority goes first', async () => {
    const tasks = controllableTasks();
    const priority: Record<string, number> = { low: 1, high: 5, mid: 3 };
    const walk = walkDag(flat(['low', 'high', 'mid']), tasks.run, {
      concurrency: 1,
      priority: (id) => priority[id]!,
    });
    await tasks.complete('high');
    await tasks.complete('mid');
    await tasks.complete('low');
    await walk;
    expect(tasks.started).toEqual(['high', 'mid', 'low']);
  });

  it('after a failure starts nothing new, lets in-flight tasks finish, and lists what never started', async () => {
    const tasks = controllableTasks();
    const nodes: WalkNode[] = [
      { id: 'A', dependsOn: [] },
      { id: 'B', dependsOn: [] },
      { id: 'C', dependsOn: ['A'] },
      { id: 'D', dependsOn: [] },
    ];
    const walk = walkDag(nodes, tasks.run, { concurrency: 2, priority: () => 0 });
    await tasks.fail('A');
    await tasks.complete('B');
    const outcome = await walk;
    expect(outcome.failed.map((f) => f.id)).toEqual(['A']);
    expect(outcome.succeeded).toEqual(['B']);
    expect(outcome.notStarted.sort()).toEqual(['C', 'D']);
  });

  it('an abort stops new dispatches', async () => {
    const tasks = controllableTasks();
    const controller = new AbortController();
    const walk = walkDag(flat(['A', 'B']), tasks.run, {
      concurrency: 1,
      priority: () => 0,
      signal: controller.signal,
    });
    controller.abort();
    await tasks.complete('A');
    expect(await walk).toEqual({ succeeded: ['A'], failed: [], notStarted: ['B'] });
  });

  it('resolves at once for an empty graph and refuses an unknown dependency', async () => {
    expect(await walkDag([], async () => undefined, { concurrency: 1, priority: () => 0 })).toEqual({
      succeeded: [],
      failed: [],
      notStarted: [],
    });
    await expect(
      walkDag([{ id: 'A', dependsOn: ['Z'] }], async () => undefined, { concurrency: 1, priority: () => 0 }),
    ).rejects.toThrow('A depends on Z');
  });
});

describe('walkDag slot release', () => {
  it('a task that releases its slot lets the next start, while its dependents wait for it to finish', async () => {
    // Concurrency 1. A releases its slot (its provider call returned) but is still saving:
    // B may start, C (which reads A) may not until A itself finishes.
    const releases = new Map<string, () => void>();
    const finishes = new Map<string, () => void>();
    const started: string[] = [];
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const walk = walkDag(
      [
        { id: 'A', dependsOn: [] },
        { id: 'B', dependsOn: [] },
        { id: 'C', dependsOn: ['A'] },
      ],
      (id, release) =>
        new Promise<void>((resolve) => {
          started.push(id);
          releases.set(id, release);
          finishes.set(id, resolve);
        }),
      { concurrency: 1, priority: (id) => (id === 'A' ? 1 : 0) },
    );
    await tick();
    expect(started).toEqual(['A']);
    releases.get('A')!();
    await tick();
    expect(started).toEqual(['A', 'B']);
    // B holds the only slot now; A finishing makes C ready, but it waits for the slot.
    finishes.get('A')!();
    await tick();
    expect(started).toEqual(['A', 'B']);
    finishes.get('B')!();
    await tick();
    expect(started).toEqual(['A', 'B', 'C']);
    finishes.get('C')!();
    const outcome = await walk;
    expect(outcome.succeeded).toEqual(['A', 'B', 'C']);
  });

  it('the walk ends only when released tasks have finished too', async () => {
    let finishA: () => void = () => {};
    let done = false;
    const walk = walkDag(
      [{ id: 'A', dependsOn: [] }],
      (_id, release) =>
        new Promise<void>((resolve) => {
          release();
          finishA = resolve;
        }),
      { concurrency: 1, priority: () => 0 },
    ).then((outcome) => {
      done = true;
      return outcome;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    finishA();
    expect((await walk).succeeded).toEqual(['A']);
  });
});
