import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * Whether V8 optimized a function with TurboFan after `calls` calls of 100 loop turns, with
 * and without the CLI's tiering. Compiled on the main thread (--no-concurrent-recompilation),
 * so the answer does not depend on timing: the budget counts bytecode, not time.
 */
function turboFanned(calls: number, tuned: boolean): boolean {
  const tiering = pathToFileURL(join(REPO_ROOT, 'dist/cli/v8-tiering.js')).href;
  const script = `import { tuneTiering } from ${JSON.stringify(tiering)};
if (${tuned}) tuneTiering();
const hot = new Function('n', 'let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s;');
for (let k = 0; k < ${calls}; k++) hot(100);
// Bit 64 of V8's optimization status: TurboFan code.
console.log((new Function('f', 'return %GetOptimizationStatus(f);')(hot) & 64) !== 0);
`;
  const child = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--no-concurrent-recompilation', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return child.stdout.trim() === 'true';
}

describe("the CLI's V8 tiering", () => {
  it('leaves a lukewarm function unoptimized that V8 would otherwise optimize', () => {
    expect(turboFanned(100, false)).toBe(true);
    expect(turboFanned(100, true)).toBe(false);
  });

  it('still optimizes a hot function', () => {
    expect(turboFanned(2_000, true)).toBe(true);
  });

  it('is set by the built entry before the compile cache, whose entries V8 keys by its flags', () => {
    const entry = readFileSync(join(REPO_ROOT, 'dist/cli/main.js'), 'utf8');
    expect(entry.indexOf('tuneTiering();')).toBeGreaterThan(-1);
    expect(entry.indexOf('tuneTiering();')).toBeLessThan(entry.indexOf('enableCompileCache();'));
  });
});
