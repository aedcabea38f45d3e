import type { Clock } from './clock.js';

/**
 * Creates that wait on one IAM entity to propagate (spec 003, "IAM propagation": a new role
 * "cannot be assumed" for about a second) share what each learns, so the call count does not
 * grow with how many wait: while the entity's usability is unknown, one create probes and the
 * others wait for its answer. A refusal is handed to every waiter as its own (each then retries
 * on its own schedule, and each retry waits for the next probe instead of calling), and a success
 * lets all of them call at once, waking any still asleep in their backoff.
 */
export class PropagationGate {
  private readonly entities = new Map<string, EntityGate>();

  /**
   * Runs `send`, a call that needs the IAM entity `key` usable; `refused` tells the refusals
   * that mean the entity has not propagated yet from any other failure.
   */
  async call<T>(key: string, send: () => Promise<T>, refused: (error: unknown) => boolean): Promise<T> {
    const gate = this.gateOf(key);
    while (!gate.usable && gate.probe) {
      const answer = await gate.probe;
      if (answer.kind === 'refused') throw wakingOn(copyOf(answer.error), gate.usableNow);
      // Another failure says nothing of the entity: this call goes on its own.
      if (answer.kind === 'other') return send();
    }
    if (gate.usable) return send();
    let answered!: (answer: ProbeAnswer) => void;
    gate.probe = new Promise((resolve) => (answered = resolve));
    try {
      const result = await send();
      gate.usable = true;
      gate.wake();
      answered({ kind: 'usable' });
      return result;
    } catch (error) {
      const refusal = refused(error);
      answered(refusal ? { kind: 'refused', error } : { kind: 'other' });
      throw refusal ? wakingOn(error, gate.usableNow) : error;
    } finally {
      gate.probe = undefined;
    }
  }

  private gateOf(key: string): EntityGate {
    let gate = this.entities.get(key);
    if (!gate) {
      let wake!: () => void;
      const usableNow = new Promise<void>((resolve) => (wake = resolve));
      gate = { usable: false, usableNow, wake };
      this.entities.set(key, gate);
    }
    return gate;
  }
}

type ProbeAnswer = { kind: 'usable' } | { kind: 'refused'; error: unknown } | { kind: 'other' };

interface EntityGate {
  usable: boolean;
  /** The call in flight whose answer tells whether the entity is usable yet. */
  probe?: Promise<ProbeAnswer>;
  /** Settles when a call needing the entity first succeeds. */
  usableNow: Promise<void>;
  wake: () => void;
}

const WAKES = new WeakMap<object, Promise<void>>();

function wakingOn<E>(error: E, wake: Promise<void>): E {
  if (typeof error === 'object' && error !== null) WAKES.set(error, wake);
  return error;
}

/** What ends the backoff after `error` early: the entity it waited on became usable. */
export function wakeOf(error: unknown): Promise<void> | undefined {
  return typeof error === 'object' && error !== null ? WAKES.get(error) : undefined;
}

/**
 * Sleeps `ms` on `clock`, or less when `wake` settles first; `signal` still aborts the sleep.
 */
export async function backoff(
  clock: Clock,
  ms: number,
  signal: AbortSignal | undefined,
  wake: Promise<void> | undefined,
): Promise<void> {
  if (!wake) return clock.sleep(ms, signal);
  const woken = new AbortController();
  const stop = () => woken.abort();
  signal?.addEventListener('abort', stop, { once: true });
  void wake.then(stop);
  try {
    await clock.sleep(ms, woken.signal);
  } catch (error) {
    if (signal?.aborted || !woken.signal.aborted) throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** A waiter's own copy of the probe's refusal, so callers that annotate an error never share one. */
function copyOf(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, error);
  copy.message = error.message;
  copy.name = error.name;
  if (error.stack !== undefined) copy.stack = error.stack;
  return copy;
}
