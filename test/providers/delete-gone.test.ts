import { describe, expect, it } from 'vitest';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../../src/providers/delete-gone.js';

const notFound = (error: unknown) => (error as Error).name === 'NotFound';

describe('deleteTreatingNotFoundAsGone', () => {
  it('makes the call', async () => {
    let calls = 0;
    await deleteTreatingNotFoundAsGone(async () => calls++, notFound);
    expect(calls).toBe(1);
  });

  it('takes a not-found error as gone', async () => {
    const gone = Object.assign(new Error('no such thing'), { name: 'NotFound' });
    await expect(deleteTreatingNotFoundAsGone(() => Promise.reject(gone), notFound)).resolves.toBeUndefined();
  });

  it('raises any other error', async () => {
    await expect(
      deleteTreatingNotFoundAsGone(() => Promise.reject(new Error('AccessDenied')), notFound),
    ).rejects.toThrow('AccessDenied');
  });
});

describe('errorCodeIn', () => {
  it('accepts an error carrying one of the codes and no other', () => {
    const isGone = errorCodeIn('NoSuchBucket', 'NoSuchBucketPolicy');
    const withCode = (name: string) => Object.assign(new Error(name), { name });
    expect(isGone(withCode('NoSuchBucketPolicy'))).toBe(true);
    expect(isGone(withCode('NoSuchBucket'))).toBe(true);
    expect(isGone(withCode('AccessDenied'))).toBe(false);
    expect(isGone(new Error('no code'))).toBe(false);
  });
});
