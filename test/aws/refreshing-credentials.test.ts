import { describe, expect, it } from 'vitest';
import { refreshingCredentials, type ExpiringCredentials } from '../../src/aws/refreshing-credentials.js';

const HOUR = 3_600_000;

function source(now: { value: number }) {
  let calls = 0;
  const fetch = async (): Promise<ExpiringCredentials> => {
    calls += 1;
    return { accessKeyId: `key-${calls}`, secretAccessKey: 's', expiration: new Date(now.value + HOUR) };
  };
  return { fetch, calls: () => calls };
}

describe('refreshingCredentials: one role session shared by every client, renewed before it expires', () => {
  it('fetches once for many concurrent and later callers while the session is fresh', async () => {
    const now = { value: 0 };
    const { fetch, calls } = source(now);
    const provider = refreshingCredentials(fetch, { now: () => now.value });
    const keys = await Promise.all([provider(), provider(), provider()]);
    now.value = 50 * 60_000;
    keys.push(await provider());
    expect(keys.map((key) => key.accessKeyId)).toEqual(['key-1', 'key-1', 'key-1', 'key-1']);
    expect(calls()).toBe(1);
  });

  it('fetches again within five minutes of expiry (a run longer than the session)', async () => {
    const now = { value: 0 };
    const { fetch, calls } = source(now);
    const provider = refreshingCredentials(fetch, { now: () => now.value });
    await provider();
    now.value = HOUR - 4 * 60_000;
    expect((await provider()).accessKeyId).toBe('key-2');
    expect((await provider()).accessKeyId).toBe('key-2');
    expect(calls()).toBe(2);
  });

  it('keeps no failure: the next call asks again', async () => {
    let attempt = 0;
    const provider = refreshingCredentials(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('AccessDenied');
      return { accessKeyId: 'ok', secretAccessKey: 's' };
    });
    await expect(provider()).rejects.toThrow('AccessDenied');
    expect((await provider()).accessKeyId).toBe('ok');
  });

  it('credentials without an expiration are kept for good', async () => {
    let calls = 0;
    const provider = refreshingCredentials(async () => {
      calls += 1;
      return { accessKeyId: 'static', secretAccessKey: 's' };
    });
    await provider();
    await provider();
    expect(calls).toBe(1);
  });
});
