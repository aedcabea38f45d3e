import { describe, expect, it } from 'vitest';
import { ContainerPool, type Reusable } from '../../src/sandbox/services/lambda/runtime/pool.js';

class Fake implements Reusable {
  alive = true;
  constructor(readonly id: number) {}
  kill(): void {
    this.alive = false;
  }
}

function harness() {
  const pool = new ContainerPool<Fake>();
  let started = 0;
  const start = () => new Fake(++started);
  return { pool, start, started: () => started };
}

describe('ContainerPool', () => {
  it('reuses a released environment of the same version and revision', async () => {
    const { pool, start, started } = harness();
    const first = await pool.acquire('fn:$LATEST', 'r1', start);
    pool.release('fn:$LATEST', first);
    expect(await pool.acquire('fn:$LATEST', 'r1', start)).toBe(first);
    expect(started()).toBe(1);
    pool.closeAll();
  });

  it('starts a second environment while the first is busy', async () => {
    const { pool, start } = harness();
    const first = await pool.acquire('fn:$LATEST', 'r1', start);
    const second = await pool.acquire('fn:$LATEST', 'r1', start);
    expect(second).not.toBe(first);
    pool.closeAll();
  });

  it('kills idle environments of an old revision and never hands them out again', async () => {
    const { pool, start } = harness();
    const old = await pool.acquire('fn:$LATEST', 'r1', start);
    pool.release('fn:$LATEST', old);
    const fresh = await pool.acquire('fn:$LATEST', 'r2', start);
    expect(fresh).not.toBe(old);
    expect(old.alive).toBe(false);
    pool.closeAll();
  });

  it('kills a busy environment of an old revision when it is released', async () => {
    const { pool, start } = harness();
    const busy = await pool.acquire('fn:$LATEST', 'r1', start);
    await pool.acquire('fn:$LATEST', 'r2', start);
    expect(busy.alive).toBe(true);
    pool.release('fn:$LATEST', busy);
    expect(busy.alive).toBe(false);
    pool.closeAll();
  });

  it('makes the fifth concurrent invocation of a version wait for a released environment', async () => {
    const { pool, start, started } = harness();
    const busy = await Promise.all([1, 2, 3, 4].map(() => pool.acquire('fn:1', 'r1', start)));
    let fifth: Fake | undefined;
    const waiting = pool.acquire('fn:1', 'r1', start).then((container) => (fifth = container));
    await Promise.resolve();
    expect(fifth).toBeUndefined();
    pool.release('fn:1', busy[2]!);
    await waiting;
    expect(fifth).toBe(busy[2]);
    expect(started()).toBe(4);
    pool.closeAll();
  });

  it('retires the versions of a function whose revision is no longer current, and only those', async () => {
    const { pool, start } = harness();
    const latest = await pool.acquire('arn:fn:$LATEST', 'r1', start);
    const one = await pool.acquire('arn:fn:1', 'v1', start);
    const other = await pool.acquire('arn:other:$LATEST', 'o1', start);
    for (const [key, container] of [
      ['arn:fn:$LATEST', latest],
      ['arn:fn:1', one],
      ['arn:other:$LATEST', other],
    ] as const) {
      pool.release(key, container);
    }
    pool.retire('arn:fn:', (key) => key === 'arn:fn:1');
    expect([latest.alive, one.alive, other.alive]).toEqual([false, true, true]);
    pool.closeAll();
  });

  it('kills every environment, busy or idle, on closeAll and refuses new work', async () => {
    const { pool, start } = harness();
    const idle = await pool.acquire('fn:$LATEST', 'r1', start);
    pool.release('fn:$LATEST', idle);
    const busy = await pool.acquire('fn:1', 'r1', start);
    pool.closeAll();
    expect([idle.alive, busy.alive]).toEqual([false, false]);
    await expect(pool.acquire('fn:$LATEST', 'r1', start)).rejects.toThrow('stopping');
  });
});
