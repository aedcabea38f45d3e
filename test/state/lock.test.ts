import { spawn } from 'node:child_process';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { LockManager, type LockClock } from '../../src/state/lock.js';
import { FAIL_FAST_SCHEDULE } from '../../src/state/lock-schedule.js';
import { S3Objects } from '../../src/state/s3-objects.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const BUCKET = 'lock-test';
let backend: StateBackend;
let stackCounter = 0;

/** A clock that never really sleeps: it records each wait and moves time forward. */
function fakeClock(
  start = new Date('2026-01-01T00:00:00Z'),
): LockClock & { sleeps: number[]; advance(ms: number): void } {
  let now = start.getTime();
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => new Date(now),
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

function freshStack() {
  stackCounter += 1;
  return { stackName: `Locked${stackCounter}`, region: 'us-east-1' };
}

async function readLock(stack: { stackName: string; region: string }) {
  const response = await backend.objects.s3.send(
    new GetObjectCommand({ Bucket: BUCKET, Key: `cdkd/${stack.stackName}/${stack.region}/lock.json` }),
  );
  return JSON.parse(await response.Body!.transformToString());
}

async function writeLockText(stack: { stackName: string; region: string }, text: string) {
  await backend.objects.s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: `cdkd/${stack.stackName}/${stack.region}/lock.json`,
      Body: text,
    }),
  );
}

/** A lock record whose holder's 30 minutes ran out long ago. */
const EXPIRED_LOCK = JSON.stringify({
  version: 1,
  owner: 'old',
  timestamp: '2025-01-01T00:00:00Z',
  expiresAt: '2025-01-01T00:30:00Z',
});

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
  backend = await openStateBackend(clients, BUCKET, 'cdkd');
});

describe('lock acquisition', () => {
  it('records owner, timestamp, expiresAt = timestamp + 30 min, and the operation', async () => {
    const stack = freshStack();
    const clock = fakeClock();
    const held = await new LockManager(backend.objects, 'cdkd', 'me@host:1', clock).acquire(stack, {
      operation: 'deploy',
    });
    expect(await readLock(stack)).toEqual({
      version: 1,
      owner: 'me@host:1',
      timestamp: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:30:00.000Z',
      operation: 'deploy',
    });
    await held.release();
  });

  it('a second holder fails after 3 retries at 2 s, naming the holder, its operation and expiry', async () => {
    const stack = freshStack();
    const first = await new LockManager(backend.objects, 'cdkd', 'alice@laptop:42', fakeClock()).acquire(
      stack,
      {
        operation: 'deploy',
      },
    );
    const clock = fakeClock(new Date('2026-01-01T00:10:00Z'));
    const error = await new LockManager(backend.objects, 'cdkd', 'bob@ci:7', clock)
      .acquire(stack, { operation: 'deploy' })
      .catch((e) => e);
    expect(clock.sleeps).toEqual([2000, 2000, 2000]);
    expect(error.code).toBe('LOCK_HELD');
    expect(error.message).toContain('alice@laptop:42 for deploy');
    expect(error.message).toContain('expires at 2026-01-01T00:30:00.000Z, in 20 min');
    expect(error.hint).toContain(`cdkd force-unlock ${stack.stackName} --region us-east-1`);
    await first.release();
  });

  it('fail-fast mode gives up at once', async () => {
    const stack = freshStack();
    const first = await new LockManager(backend.objects, 'cdkd', 'a', fakeClock()).acquire(stack, {
      operation: 'deploy',
    });
    const clock = fakeClock();
    await expect(
      new LockManager(backend.objects, 'cdkd', 'b', clock).acquire(stack, {
        operation: 'destroy',
        schedule: FAIL_FAST_SCHEDULE,
      }),
    ).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(clock.sleeps).toEqual([]);
    await first.release();
  });

  it('retries at once when the lock vanished in between, 3 times, then waits and says no lock could be read', async () => {
    const stack = freshStack();
    await writeLockText(
      stack,
      '{"version":1,"owner":"x","timestamp":"t","expiresAt":"2999-01-01T00:00:00Z"}',
    );
    let puts = 0;
    // Simulates a holder that releases and re-takes the lock between our create and our read.
    class Flickering extends S3Objects {
      override async put(...args: Parameters<S3Objects['put']>) {
        puts += 1;
        return super.put(...args);
      }
      override async get() {
        return undefined;
      }
    }
    const objects = new Flickering(backend.objects.s3, BUCKET, 'us-east-1');
    const clock = fakeClock();
    const error = await new LockManager(objects, 'cdkd', 'me', clock)
      .acquire(stack, { operation: 'deploy' })
      .catch((e) => e);
    expect(puts).toBe(1 + 3 + 3);
    expect(clock.sleeps).toEqual([2000, 2000, 2000]);
    expect(error.message).toContain('No lock could be read after the last failed attempt');
  });

  it.each([
    ['a create', false],
    ['a takeover of an expired lock', true],
  ])(
    "%s whose answer was lost after it landed is this run's lock, not another holder's",
    async (_, expired) => {
      const stack = freshStack();
      if (expired) {
        await writeLockText(stack, EXPIRED_LOCK);
      }
      const faults = `${sandbox.current.url}/_sandbox/faults`;
      await fetch(faults, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // A takeover's write is the second: the create the expired lock refused comes first.
        body: JSON.stringify({
          service: 's3',
          operation: 'PutObject',
          nth: expired ? 2 : 1,
          dropConnection: true,
          afterApply: true,
        }),
      });
      try {
        // Each write's record differs in its timestamp, as on a real clock.
        const clock = fakeClock();
        const ticking: LockClock = { sleep: clock.sleep, now: () => (clock.advance(1), clock.now()) };
        const held = await new LockManager(backend.objects, 'cdkd', 'me@host:7', ticking).acquire(stack, {
          operation: 'deploy',
          schedule: FAIL_FAST_SCHEDULE,
        });
        const { faults: applied } = (await (await fetch(faults)).json()) as { faults: { fired: number }[] };
        expect(applied.map((fault) => fault.fired)).toEqual([1]);
        expect(await readLock(stack)).toMatchObject({ owner: 'me@host:7', operation: 'deploy' });
        await held.release();
        await expect(readLock(stack)).rejects.toThrow();
      } finally {
        await fetch(faults, { method: 'DELETE' });
      }
    },
  );

  it('a torn lock.json is not taken over: it fails with "No lock could be read"', async () => {
    const stack = freshStack();
    await writeLockText(stack, '{"version":1,"owner":"x","timest');
    const clock = fakeClock();
    const error = await new LockManager(backend.objects, 'cdkd', 'me', clock)
      .acquire(stack, { operation: 'deploy' })
      .catch((e) => e);
    expect(error.code).toBe('LOCK_HELD');
    expect(error.message).toContain('No lock could be read after the last failed attempt');
    expect(clock.sleeps).toHaveLength(3);
  });

  it('an expired lock is taken over', async () => {
    const stack = freshStack();
    await writeLockText(stack, EXPIRED_LOCK);
    const held = await new LockManager(backend.objects, 'cdkd', 'new-owner', fakeClock()).acquire(stack, {
      operation: 'deploy',
    });
    expect((await readLock(stack)).owner).toBe('new-owner');
    await held.release();
  });

  it('a truncated lock record with no expiresAt is treated as expired', async () => {
    const stack = freshStack();
    await writeLockText(
      stack,
      JSON.stringify({ version: 1, owner: 'old', timestamp: '2026-01-01T00:00:00Z' }),
    );
    const held = await new LockManager(backend.objects, 'cdkd', 'taker', fakeClock()).acquire(stack, {
      operation: 'deploy',
    });
    expect((await readLock(stack)).owner).toBe('taker');
    await held.release();
  });
});

describe('a held lock', () => {
  it('renewal moves expiresAt forward', async () => {
    const stack = freshStack();
    const clock = fakeClock();
    const held = await new LockManager(backend.objects, 'cdkd', 'me', clock).acquire(stack, {
      operation: 'deploy',
    });
    clock.advance(2 * 60_000);
    await held.renew();
    expect((await readLock(stack)).expiresAt).toBe('2026-01-01T00:32:00.000Z');
    await held.release();
  });

  it('renews by itself on its interval', async () => {
    const stack = freshStack();
    const clock = fakeClock();
    const held = await new LockManager(backend.objects, 'cdkd', 'me', clock, 50).acquire(stack, {
      operation: 'deploy',
    });
    clock.advance(60_000);
    await expect
      .poll(async () => (await readLock(stack)).expiresAt, { timeout: 60_000 })
      .toBe('2026-01-01T00:31:00.000Z');
    await held.release();
  });

  it('a renewal after force-unlock reports the lock lost and release leaves the new holder alone', async () => {
    const stack = freshStack();
    const lost: string[] = [];
    const held = await new LockManager(backend.objects, 'cdkd', 'me', fakeClock()).acquire(stack, {
      operation: 'deploy',
      onLost: (message) => lost.push(message),
    });
    const found = await backend.locks.find(stack);
    expect(found.kind === 'readable' && (await backend.locks.deleteIfUnchanged(stack, found.etag))).toBe(
      true,
    );
    const other = await new LockManager(backend.objects, 'cdkd', 'other', fakeClock()).acquire(stack, {
      operation: 'deploy',
    });
    await held.renew();
    expect(held.isLost).toBe(true);
    expect(lost[0]).toContain('taken over or cleared');
    await held.release();
    expect((await readLock(stack)).owner).toBe('other');
    await other.release();
  });

  it('release deletes the lock so the next acquire succeeds at once', async () => {
    const stack = freshStack();
    const held = await backend.locks.acquire(stack, { operation: 'deploy' });
    await held.release();
    expect((await backend.locks.find(stack)).kind).toBe('absent');
  });
});

describe('two real OS processes racing for one lock', () => {
  it('exactly one wins', async () => {
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', 'test/fixtures/lock-racer.ts', BUCKET, '3000'],
          {
            env: { ...process.env, ...sandboxEnv(sandbox.current.url) },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let out = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.on('error', reject);
        child.on('close', () => resolve(out.trim()));
      });
    const outcomes = await Promise.all([run(), run()]);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o.startsWith('lost: ') && o.includes('is locked by'))).toHaveLength(1);
  });
});
