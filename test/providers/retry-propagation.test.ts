import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/providers/clock.js';
import { backoff, PropagationGate, wakeOf } from '../../src/providers/retry-propagation.js';

const ROLE = 'arn:aws:iam::000000000000:role/new';

function refusal(): Error {
  return Object.assign(new Error('The role defined for the function cannot be assumed by Lambda.'), {
    name: 'InvalidParameterValueException',
  });
}
const isRefusal = (error: unknown) => (error as Error).name === 'InvalidParameterValueException';

/** A call that IAM refuses until `usable`, counting how often it was sent; each answer takes a tick. */
function service() {
  const state = { usable: false, sent: 0 };
  const send = async (): Promise<string> => {
    state.sent += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (!state.usable) throw refusal();
    return 'made';
  };
  return { state, send };
}

/** A clock whose sleeps end only when aborted: a backoff that returns was woken. */
const frozenClock: Clock = {
  now: () => 0,
  sleep: (_ms, signal) =>
    new Promise((_resolve, reject) =>
      signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
    ),
};

describe('PropagationGate', () => {
  it('sends one probe for many waiting calls and hands its refusal to each as its own copy', async () => {
    const gate = new PropagationGate();
    const { state, send } = service();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => gate.call(ROLE, send, isRefusal)),
    );
    expect(state.sent).toBe(1);
    const errors = outcomes.map((outcome) => (outcome as PromiseRejectedResult).reason as Error);
    expect(errors.every((error) => isRefusal(error) && error.message.includes('cannot be assumed'))).toBe(
      true,
    );
    expect(new Set(errors).size).toBe(5);
    expect(errors.every((error) => wakeOf(error) !== undefined)).toBe(true);
  });

  it('lets every waiting call through once a probe succeeds, and wakes those in backoff', async () => {
    const gate = new PropagationGate();
    const { state, send } = service();
    const refused = await gate.call(ROLE, send, isRefusal).catch((error: unknown) => error);
    const asleep = backoff(frozenClock, 60_000, undefined, wakeOf(refused));
    state.usable = true;
    state.sent = 0;
    const made = await Promise.all(Array.from({ length: 5 }, () => gate.call(ROLE, send, isRefusal)));
    expect(made).toEqual(['made', 'made', 'made', 'made', 'made']);
    // The probe, then the four that waited for it; afterwards no call waits.
    expect(state.sent).toBe(5);
    await asleep;
  });

  it('keeps roles apart, and a failure that is no refusal sends each waiting call on its own', async () => {
    const gate = new PropagationGate();
    let sent = 0;
    const conflict = async (): Promise<string> => {
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw Object.assign(new Error('exists'), { name: 'ResourceConflictException' });
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 }, () => gate.call(ROLE, conflict, isRefusal)),
    );
    expect(sent).toBe(3);
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    const other = service();
    other.state.usable = true;
    expect(await gate.call(`${ROLE}-other`, other.send, isRefusal)).toBe('made');
  });
});

describe('backoff', () => {
  it('sleeps the full delay without a wake', async () => {
    const slept: number[] = [];
    const clock: Clock = { now: () => 0, sleep: async (ms) => void slept.push(ms) };
    await backoff(clock, 250, undefined, undefined);
    expect(slept).toEqual([250]);
  });

  it('still ends on the run signal, with its abort error', async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => undefined);
    const asleep = backoff(frozenClock, 60_000, controller.signal, never);
    controller.abort();
    await expect(asleep).rejects.toThrow('aborted');
  });
});
