import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../../src/sandbox/clock/clock.js';
import { parseDuration } from '../../../src/sandbox/clock/duration.js';

const T0 = Date.parse('2030-01-01T00:00:00Z');

describe('parseDuration', () => {
  it.each([
    [1500, 1500],
    ['PT25H', 25 * 3_600_000],
    ['P1DT2H', 26 * 3_600_000],
    ['P1W', 7 * 86_400_000],
    ['PT1.5S', 1500],
    ['90s', 90_000],
    ['1d2h', 26 * 3_600_000],
    ['500ms', 500],
    ['10m', 600_000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each([['soon'], ['P'], ['PT'], ['-5s'], [-1], [''], ['5 x'], [undefined]])('%s is refused', (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
});

describe('SandboxClock', () => {
  it('follows the machine time until set, then stands still', async () => {
    let machine = 1_000;
    const clock = new SandboxClock(() => machine);
    expect([clock.now(), clock.mode()]).toEqual([1_000, 'wall']);
    machine = 2_000;
    expect(clock.now()).toBe(2_000);
    await clock.set(T0);
    machine = 9_000;
    expect([clock.now(), clock.mode()]).toEqual([T0, 'frozen']);
  });

  it('fires timers due by an advance in order, each seeing its own due time', async () => {
    const clock = new SandboxClock(() => 0);
    await clock.set(T0);
    const seen: Array<[string, number]> = [];
    clock.at(T0 + 3000, () => void seen.push(['c', clock.now()]));
    clock.at(T0 + 1000, () => void seen.push(['a', clock.now()]));
    clock.at(T0 + 2000, () => {
      seen.push(['b', clock.now()]);
      // A timer set while firing fires in the same advance when it falls due within it.
      clock.at(clock.now() + 500, () => void seen.push(['b+', clock.now()]));
    });
    clock.at(T0 + 9000, () => void seen.push(['late', clock.now()]));
    expect(await clock.advance(5000)).toBe(4);
    expect(seen).toEqual([
      ['a', T0 + 1000],
      ['b', T0 + 2000],
      ['b+', T0 + 2500],
      ['c', T0 + 3000],
    ]);
    expect(clock.now()).toBe(T0 + 5000);
  });

  it('fires what a set jumps over once, late, at the new time', async () => {
    const clock = new SandboxClock(() => 0);
    await clock.set(T0);
    const seen: number[] = [];
    clock.at(T0 + 1000, () => void seen.push(clock.now()));
    clock.at(T0 + 9000, () => void seen.push(clock.now()));
    expect(await clock.set(T0 + 5000)).toBe(1);
    expect(seen).toEqual([T0 + 5000]);
  });

  it('never fires a cancelled timer', async () => {
    const clock = new SandboxClock(() => 0);
    await clock.set(T0);
    let fired = false;
    clock.at(T0 + 10, () => void (fired = true)).cancel();
    expect(await clock.advance(100)).toBe(0);
    expect(fired).toBe(false);
  });

  it('sleeps on sandbox time', async () => {
    const clock = new SandboxClock(() => 0);
    await clock.set(T0);
    let woke = false;
    const sleeping = clock.sleep(86_400_000).then(() => (woke = true));
    await clock.advance(86_399_999);
    expect(woke).toBe(false);
    await clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);
  });

  it('in a running mode, fires a timer when real time reaches it', async () => {
    const clock = new SandboxClock();
    await clock.set(T0, 'running');
    const fired = new Promise<number>((resolve) => clock.at(T0 + 20, () => resolve(clock.now())));
    expect(await fired).toBeGreaterThanOrEqual(T0 + 20);
    expect(clock.mode()).toBe('running');
    clock.close();
  });

  it('goes back to the machine time with the wall mode', async () => {
    let machine = 5_000;
    const clock = new SandboxClock(() => machine);
    await clock.set(T0);
    await clock.setMode('wall');
    machine = 6_000;
    expect([clock.now(), clock.mode()]).toEqual([6_000, 'wall']);
  });
});
