import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFiles, type FileWatcher } from '../../../src/toolkit/watch/file-watcher.js';
import { watchFilter, watchSettings } from '../../../src/toolkit/watch/watch-settings.js';
import { tempDir } from '../../assembly/helpers.js';

const QUIET_MS = 60;
const settle = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS * 4));

let watcher: FileWatcher | undefined;
afterEach(() => watcher?.close());

async function watched() {
  const dir = tempDir();
  mkdirSync(join(dir, 'lambda'));
  mkdirSync(join(dir, 'node_modules', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'cdk.out'));
  const batches: string[][] = [];
  watcher = await watchFiles(
    dir,
    watchFilter(watchSettings(dir, join(dir, 'cdk.out'))),
    (paths) => batches.push(paths),
    QUIET_MS,
  );
  return { dir, batches };
}

describe('watchFiles: the changes that count, once quiet', () => {
  it('a burst of writes to the code is one batch naming each file', async () => {
    const { dir, batches } = await watched();
    writeFileSync(join(dir, 'lambda', 'index.js'), 'a');
    writeFileSync(join(dir, 'lambda', 'index.js'), 'b');
    writeFileSync(join(dir, 'app.js'), 'c');
    await settle();
    expect(batches).toEqual([['app.js', 'lambda/index.js']]);
  });

  it('excluded files and directories report nothing', async () => {
    const { dir, batches } = await watched();
    writeFileSync(join(dir, 'README.md'), 'docs');
    writeFileSync(join(dir, 'node_modules', 'lib', 'index.js'), 'x');
    writeFileSync(join(dir, 'cdk.out', 'manifest.json'), '{}');
    writeFileSync(join(dir, '.index.js.swp'), 'x');
    await settle();
    expect(batches).toEqual([]);
  });

  it('a directory made after the start is watched too', async () => {
    const { dir, batches } = await watched();
    mkdirSync(join(dir, 'handlers'));
    await settle();
    batches.length = 0;
    writeFileSync(join(dir, 'handlers', 'new.js'), 'x');
    await settle();
    expect(batches).toEqual([['handlers/new.js']]);
  });
});
