import { describe, expect, it } from 'vitest';
import type { FoundLock } from '../../src/state/index.js';
import { describeHolder, forceUnlock, runningLocalHolder } from '../../src/toolkit/state/force-unlock.js';
import type { Session } from '../../src/toolkit/session/session.js';
import { RecordingIoHost } from '../helpers/recording-io-host.js';

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

describe('forceUnlock: shows the holder, asks, deletes the lock that was shown', () => {
  const stack = { stackName: 'Stuck', region: 'us-east-1' };
  const document = {
    version: 1 as const,
    owner: 'me@here:4242',
    timestamp: '2026-01-01T00:55:00Z',
    expiresAt: '2026-01-01T01:25:00Z',
    operation: 'deploy',
  };
  function sessionWith(found: FoundLock, deleteIfUnchanged = async () => true) {
    const deleted: string[] = [];
    const locks = {
      find: async () => found,
      deleteIfUnchanged: async (_: unknown, etag: string) => {
        deleted.push(etag);
        return deleteIfUnchanged();
      },
    };
    return { session: { stateBackend: async () => ({ locks }) } as unknown as Session, deleted };
  }
  const options = { force: false, thisHost: 'here', now, isRunning: () => false };
  const command = 'force-unlock';

  it('asks with the holder described (CDKD_Q9100) and deletes exactly the shown lock on a yes', async () => {
    const { session, deleted } = sessionWith({ kind: 'readable', document, etag: '"e1"' });
    const io = new RecordingIoHost({ CDKD_Q9100: true });
    const outcome = await forceUnlock(session, stack, options, { io, command });
    expect(io.questions).toHaveLength(1);
    expect(io.questions[0]).toMatchObject({
      code: 'CDKD_Q9100',
      data: { stackName: 'Stuck', region: 'us-east-1', holder: describeHolder(document, now) },
      defaultAnswer: false,
    });
    expect(deleted).toEqual(['"e1"']);
    expect(outcome).toEqual({ kind: 'deleted', holder: { owner: 'me@here:4242', operation: 'deploy' } });
  });

  it('deletes nothing on a no, or when nobody can answer', async () => {
    const { session, deleted } = sessionWith({ kind: 'readable', document, etag: '"e1"' });
    await expect(
      forceUnlock(session, stack, options, { io: new RecordingIoHost(), command }),
    ).rejects.toThrow('Cancelled');
    expect(deleted).toEqual([]);
  });

  it('refuses a holder still running on this host before asking, unless forced', async () => {
    const { session, deleted } = sessionWith({ kind: 'readable', document, etag: '"e1"' });
    const io = new RecordingIoHost({ CDKD_Q9100: true });
    const running = { ...options, isRunning: (pid: number) => pid === 4242 };
    await expect(forceUnlock(session, stack, running, { io, command })).rejects.toMatchObject({
      code: 'LOCK_HOLDER_RUNNING',
    });
    expect(io.questions).toEqual([]);
    await forceUnlock(session, stack, { ...running, force: true }, { io, command });
    expect(deleted).toEqual(['"e1"']);
  });

  it('asks about an unreadable lock too, and says nothing was there when there is no lock', async () => {
    const unreadable = sessionWith({ kind: 'unreadable', etag: '"e2"' });
    const io = new RecordingIoHost({ CDKD_Q9100: true });
    expect(await forceUnlock(unreadable.session, stack, options, { io, command })).toEqual({
      kind: 'deleted',
    });
    expect(io.questions[0]?.data).toMatchObject({ holder: 'a lock.json that cannot be read' });
    const absent = sessionWith({ kind: 'absent' });
    expect(await forceUnlock(absent.session, stack, options, { io, command })).toEqual({
      kind: 'not-locked',
    });
  });

  it('refuses when the lock changed after it was shown', async () => {
    const { session } = sessionWith({ kind: 'readable', document, etag: '"e1"' }, async () => false);
    const io = new RecordingIoHost({ CDKD_Q9100: true });
    await expect(forceUnlock(session, stack, options, { io, command })).rejects.toMatchObject({
      code: 'LOCK_CHANGED',
    });
  });
});
