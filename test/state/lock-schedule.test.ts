import { describe, expect, it } from 'vitest';
import { nextLockStep, type LockObservation, type NextStep } from '../../src/state/lock-schedule.js';

// Spec 003, "Lock acquisition", one row per rule.
describe('nextLockStep', () => {
  const rows: Array<[string, LockObservation['kind'], number, number, NextStep]> = [
    ['a held lock with retries left waits 2 s and retries', 'held', 3, 3, 'wait-and-retry'],
    ['a held lock after the last retry gives up', 'held', 0, 3, 'give-up'],
    ['a lock released in between is retried at once, not counted', 'released', 3, 3, 'retry-now'],
    [
      'released with no retries left still retries at once while extras remain',
      'released',
      0,
      1,
      'retry-now',
    ],
    ['past the extra attempts, finding no lock waits the same 2 s', 'released', 2, 0, 'wait-and-retry'],
    ['past the extra attempts and retries, finding no lock gives up', 'released', 0, 0, 'give-up'],
    ['an unreadable lock.json waits like a held one', 'unreadable', 1, 3, 'wait-and-retry'],
    ['an unreadable lock.json gives up at the end', 'unreadable', 0, 3, 'give-up'],
    ['an expired lock is taken over', 'expired', 0, 0, 'take-over'],
  ];
  it.each(rows)('%s', (_name, kind, retriesLeft, extraLeft, expected) => {
    expect(nextLockStep({ kind } as LockObservation, { retriesLeft, extraLeft })).toBe(expected);
  });
});
