import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCacheDir } from '../../src/cli/compile-cache.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'cdkd-compile-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stderr: string;
  value?: unknown;
  stats?: { dir: string; hits: number; misses: number; rejected: number; passedOn: number };
}

/**
 * A folder with a runner that turns the built cache on (as dist/cli/main.js does), requires
 * `main.cjs` and prints what it exported and what the cache saw.
 */
function project(files: Record<string, string>): { dir: string; run: (env?: Record<string, string>) => Run } {
  const dir = mkdtempSync(join(root, 'project-'));
  const cache = join(dir, 'cache');
  const cacheModule = pathToFileURL(join(REPO_ROOT, 'dist/cli/compile-cache.js')).href;
  writeFileSync(
    join(dir, 'runner.mjs'),
    `import { createRequire } from 'node:module';
import { enableCompileCache, compileCacheStats } from ${JSON.stringify(cacheModule)};
enableCompileCache();
const value = await createRequire(import.meta.url)('./main.cjs').value();
console.log(JSON.stringify({ value, stats: compileCacheStats() }));
`,
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return {
    dir,
    run: (env = {}) => {
      const child = spawnSync(process.execPath, [join(dir, 'runner.mjs')], {
        env: { ...process.env, CDKD_COMPILE_CACHE: cache, NODE_DISABLE_COMPILE_CACHE: '', ...env },
        encoding: 'utf8',
      });
      const printed = child.stdout.trim() ? (JSON.parse(child.stdout) as Run) : {};
      return { status: child.status, stderr: child.stderr, ...printed };
    },
  };
}

const entries = (dir: string): string[] =>
  readdirSync(join(dir, 'cache', `${process.version}-${process.arch}`));

describe('the compile cache', () => {
  it('compiles a module once, then loads it from the cache with the same behaviour', () => {
    const { dir, run } = project({
      'main.cjs': `const helper = require('./helper.cjs');
module.exports.value = () => ({
  sum: helper.add(40, 2),
  resolved: require.resolve('./helper.cjs') === __dirname + '/helper.cjs',
  same: require('./helper.cjs') === helper && require.cache[__filename].exports === module.exports,
});`,
      'helper.cjs': 'exports.add = (a, b) => a + b;',
    });
    const first = run();
    expect(first).toMatchObject({ status: 0, stderr: '', stats: { hits: 0, misses: 2, rejected: 0 } });
    expect(first.value).toEqual({ sum: 42, resolved: true, same: true });
    expect(entries(dir)).toHaveLength(2);

    const second = run();
    expect(second).toMatchObject({ status: 0, stats: { hits: 2, misses: 0 } });
    expect(second.value).toEqual(first.value);
  });

  it('never runs an entry for an older source, even one of the same length', () => {
    const { dir, run } = project({ 'main.cjs': 'module.exports.value = () => 41;' });
    expect(run().value).toBe(41);
    writeFileSync(join(dir, 'main.cjs'), 'module.exports.value = () => 42;');
    expect(run()).toMatchObject({ value: 42, stats: { hits: 0, misses: 1 } });
    expect(run()).toMatchObject({ value: 42, stats: { hits: 1, misses: 0 } });
  });

  it('compiles anew when V8 refuses an entry, and replaces it', () => {
    const { dir, run } = project({ 'main.cjs': 'module.exports.value = () => "ran";' });
    run();
    const [entry] = entries(dir);
    const file = join(dir, 'cache', `${process.version}-${process.arch}`, entry!);
    const bytes = readFileSync(file);
    // The source's digest stays (so the entry is offered to V8); the code after it is garbage.
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 20), Buffer.alloc(bytes.length - 20, 7)]));
    expect(run()).toMatchObject({ status: 0, value: 'ran', stats: { hits: 0, misses: 1, rejected: 1 } });
    expect(run()).toMatchObject({ value: 'ran', stats: { hits: 1, rejected: 0 } });
  });

  it("leaves to Node a source that calls import(), a hashbang line and a syntax error keep Node's meaning", () => {
    const { run } = project({
      'main.cjs': `#!/usr/bin/env node
const broken = (() => { try { require('./broken.cjs'); } catch (error) { return error.name; } })();
module.exports.value = async () => ({ broken, os: typeof (await import('node:os')).platform });`,
      'broken.cjs': 'module.exports = {;',
    });
    const first = run();
    expect(first).toMatchObject({ status: 0, stderr: '', value: { broken: 'SyntaxError', os: 'function' } });
    expect(first.stats).toMatchObject({ misses: 0, passedOn: 2 });
  });

  it('is only a slower start when its folder cannot be written', () => {
    const { dir, run } = project({ 'main.cjs': 'module.exports.value = () => 1;' });
    writeFileSync(join(dir, 'cache'), 'a file where the cache folder would go');
    expect(run()).toMatchObject({ status: 0, stderr: '', value: 1, stats: { misses: 1 } });
    expect(run()).toMatchObject({ status: 0, stderr: '', value: 1, stats: { hits: 0, misses: 1 } });
  });

  it('keeps its folder bounded: past 1,500 entries the older half goes, never the one just written', () => {
    const { dir, run } = project({ 'main.cjs': 'module.exports.value = () => 1;' });
    const folder = join(dir, 'cache', `${process.version}-${process.arch}`);
    mkdirSync(folder, { recursive: true });
    const old = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < 1500; i++) {
      const file = join(folder, `old-${String(i).padStart(4, '0')}`);
      writeFileSync(file, '');
      utimesSync(file, old, new Date(old.getTime() + i * 1000));
    }
    expect(run()).toMatchObject({ status: 0, value: 1, stats: { misses: 1 } });
    const kept = readdirSync(folder);
    expect(kept).toHaveLength(750);
    expect(kept).not.toContain('old-0750');
    expect(kept).toContain('old-0751');
    expect(run()).toMatchObject({ value: 1, stats: { hits: 1, misses: 0 } });
  });

  it.each([
    ['CDKD_COMPILE_CACHE=off', { CDKD_COMPILE_CACHE: 'off' }],
    ["Node's NODE_DISABLE_COMPILE_CACHE=1", { NODE_DISABLE_COMPILE_CACHE: '1' }],
  ])('is turned off by %s', (_name, env) => {
    const { dir, run } = project({ 'main.cjs': 'module.exports.value = () => 1;' });
    expect(run(env)).toMatchObject({ status: 0, value: 1 });
    expect(run(env).stats).toBeUndefined();
    expect(existsSync(join(dir, 'cache'))).toBe(false);
  });

  it.each([
    ['CDKD_COMPILE_CACHE names the folder', { CDKD_COMPILE_CACHE: '/c', HOME: '/h' }, '/c'],
    ['else XDG_CACHE_HOME', { XDG_CACHE_HOME: '/x' }, '/x/cdkd/compile-cache'],
    ['off', { CDKD_COMPILE_CACHE: 'off' }, undefined],
    ['0', { CDKD_COMPILE_CACHE: '0' }, undefined],
    ['NODE_DISABLE_COMPILE_CACHE', { XDG_CACHE_HOME: '/x', NODE_DISABLE_COMPILE_CACHE: '1' }, undefined],
  ])('its folder: %s', (_name, env, base) => {
    expect(compileCacheDir(env)).toBe(base && join(base, `${process.version}-${process.arch}`));
  });

  it('serves the built CLI: its second start reads what the first wrote', async () => {
    const cache = mkdtempSync(join(root, 'cli-'));
    const first = await runCli(['--version'], { env: { CDKD_COMPILE_CACHE: cache } });
    const folder = join(cache, `${process.version}-${process.arch}`);
    const written = () => readdirSync(folder).map((name) => [name, statSync(join(folder, name)).mtimeMs]);
    const afterFirst = written();
    expect(afterFirst.length).toBeGreaterThan(0);
    const second = await runCli(['--version'], { env: { CDKD_COMPILE_CACHE: cache } });
    expect(first.code).toBe(0);
    expect(second).toEqual(first);
    // Nothing rewritten: every module the second start compiled came from the cache.
    expect(written()).toEqual(afterFirst);
  });
});
