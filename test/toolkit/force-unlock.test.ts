import { describe, expect, it } from 'vitest';
import { describeHolder, runningLocalHolder } from '../../src/toolkit/force-unlock.js';

const now = new Date('2026-01-01T01:00:00Z');

describe('runningLocalHolder: which holder force-unlock refuses without --force', () => {
  const running = new Set([4242]);
  const rows: Array<[string, string, number | undefined]> = [
    ['this host, pid running', 'me@here:4242', 4242],
    ['this host, pid gone', 'me@here:4343', undefined],
    ['another host, same pid', 'me@elsewhere:4242', undefined],
    ['a host name holding @ and : (the last ones split it)', 'me@x@here:4242', 4242],
    ['an owner in another shape: nothing to check', 'someone', undefined],
    ['pid 0 is never a holder', 'me@here:0', undefined],
  ];
  it.each(rows)('%s', (_, owner, expected) => {
    expect(runningLocalHolder(owner, 'here', (pid) => running.has(pid))).toBe(expected);
  });
});

describe('describeHolder', () => {
  const rows: Array<[string, { timestamp: string; expiresAt?: string; operation?: string }, string]> = [
    [
      'a live lock',
      { timestamp: '2026-01-01T00:55:00Z', expiresAt: '2026-01-01T01:25:00Z', operation: 'deploy' },
      'owner a@h:1, operation deploy, taken or last renewed 5 minutes ago, expires in 25 minutes',
    ],
    [
      'an expired lock',
      { timestamp: '2026-01-01T00:00:00Z', expiresAt: '2026-01-01T00:30:00Z', operation: 'destroy' },
      'owner a@h:1, operation destroy, taken or last renewed 60 minutes ago, expired 30 minutes ago',
    ],
    [
      'a truncated lock without expiresAt or operation',
      { timestamp: '2026-01-01T00:59:50Z' },
      'owner a@h:1, operation an unnamed operation, taken or last renewed less than a minute ago, no readable expiry (treated as expired)',
    ],
  ];
  it.each(rows)('%s', (_, fields, expected) => {
    expect(describeHolder({ version: 1, owner: 'a@h:1', ...fields }, now)).toBe(expected);
  });
});
