import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clearCachedContext,
  listCachedContext,
  resetCachedContext,
} from '../../src/toolkit/session/context-cache.js';
import { tempDir, writeJson } from '../assembly/helpers.js';

function project(cached: Record<string, unknown>, cdkJsonContext: Record<string, unknown> = {}): string {
  const dir = tempDir();
  writeJson(join(dir, 'cdk.context.json'), cached);
  writeJson(join(dir, 'cdk.json'), { app: 'node app.js', context: cdkJsonContext });
  return dir;
}

const cachedKeys = (dir: string) =>
  Object.keys(JSON.parse(readFileSync(join(dir, 'cdk.context.json'), 'utf8')));

describe('the context cache (cdk.context.json)', () => {
  it('lists cached values numbered from 1 in key order', () => {
    const dir = project({ 'b-key': 2, 'a-key': [1] });
    expect(listCachedContext(dir)).toEqual([
      { number: 1, key: 'a-key', value: [1] },
      { number: 2, key: 'b-key', value: 2 },
    ]);
  });

  it('resets one value by number or by key, keeping the others', () => {
    const dir = project({ a: 1, b: 2, c: 3 });
    expect(resetCachedContext(dir, '2')).toBe('b');
    expect(cachedKeys(dir)).toEqual(['a', 'c']);
    expect(resetCachedContext(dir, 'c')).toBe('c');
    expect(cachedKeys(dir)).toEqual(['a']);
  });

  it('refuses a key only cdk.json sets, saying where it is, and changes nothing', () => {
    const dir = project({ a: 1 }, { '@aws-cdk/core:flag': true });
    expect(() => resetCachedContext(dir, '@aws-cdk/core:flag')).toThrow(
      expect.objectContaining({
        code: 'CONTEXT_KEY_NOT_FOUND',
        message: expect.stringContaining('set in cdk.json'),
      }),
    );
    expect(() => resetCachedContext(dir, '7')).toThrow(
      expect.objectContaining({ code: 'CONTEXT_KEY_NOT_FOUND' }),
    );
    expect(cachedKeys(dir)).toEqual(['a']);
  });

  it('clears every value and says how many there were', () => {
    const dir = project({ a: 1, b: 2 });
    expect(clearCachedContext(dir)).toBe(2);
    expect(listCachedContext(dir)).toEqual([]);
    expect(clearCachedContext(dir)).toBe(0);
  });
});
