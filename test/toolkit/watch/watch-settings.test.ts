import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../../src/errors.js';
import { globMatcher } from '../../../src/toolkit/watch/watch-globs.js';
import { watchFilter, watchSettings } from '../../../src/toolkit/watch/watch-settings.js';
import { tempDir } from '../../assembly/helpers.js';

describe('watch globs: a pattern matches the path or a directory above it', () => {
  const rows: Array<[pattern: string, path: string, matches: boolean]> = [
    ['**', 'lambda/index.js', true],
    ['README.md', 'README.md', true],
    ['README.md', 'docs/README.md', false],
    ['**/*.d.ts', 'index.d.ts', true],
    ['**/*.d.ts', 'lib/deep/stack.d.ts', true],
    ['**/*.d.ts', 'lib/stack.ts', false],
    ['cdk*.json', 'cdk.context.json', true],
    ['cdk*.json', 'cdk.json', true],
    ['test', 'test/stack.test.ts', true],
    ['test', 'lib/test.ts', false],
    ['cdk.out/**', 'cdk.out', true],
    ['cdk.out/**', 'cdk.out/manifest.json', true],
    ['cdk.out/**', 'cdk.outside.ts', false],
    ['**/.*', '.git', true],
    ['**/.*', 'lib/.index.js.swp', true],
    ['**/.*/**', '.idea/workspace.xml', true],
    ['**/node_modules/**', 'node_modules/aws-cdk-lib/index.js', true],
    ['**/node_modules/**', 'lambda/node_modules/x/y.js', true],
    ['src/**/*.ts', 'src/a/b/c.ts', true],
    ['src/**/*.ts', 'src/c.ts', true],
    ['src/**/*.ts', 'lib/c.ts', false],
    ['lib/*.{ts,js}', 'lib/a.js', true],
    ['lib/*.{ts,js}', 'lib/a.py', false],
    ['./bin/**', 'bin/app.ts', true],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
  ];
  it.each(rows)('%s against %s: %s', (pattern, path, matches) => {
    expect(globMatcher([pattern])(path)).toBe(matches);
  });
});

describe('watch settings: cdk.json watch keys, else the CDK CLI defaults', () => {
  const project = (cdkJson?: object, files: string[] = []) => {
    const dir = tempDir();
    if (cdkJson) writeFileSync(join(dir, 'cdk.json'), JSON.stringify(cdkJson));
    for (const file of files) writeFileSync(join(dir, file), '{}');
    return dir;
  };
  const counts = (dir: string, path: string, outdir = join(dir, 'cdk.out')) =>
    watchFilter(watchSettings(dir, outdir)).counts(path);

  const rows: Array<
    [name: string, cdkJson: object | undefined, files: string[], path: string, counted: boolean]
  > = [
    ['no cdk.json: the code counts', undefined, [], 'lambda/index.js', true],
    ['no cdk.json: the README does not', undefined, [], 'README.md', false],
    ['no cdk.json: the assembly does not', undefined, [], 'cdk.out/Stack.template.json', false],
    ['no cdk.json: node_modules does not', undefined, [], 'node_modules/x/index.js', false],
    ['no cdk.json: a dotfile does not', undefined, [], 'lib/.stack.ts.swp', false],
    ['no cdk.json: the context cache does not', undefined, [], 'cdk.context.json', false],
    ['no cdk.json: tests do not', undefined, [], 'test/app.test.js', false],
    ['a TypeScript project: compiled .js does not', undefined, ['tsconfig.json'], 'lib/stack.js', false],
    ['a TypeScript project: .ts does', undefined, ['tsconfig.json'], 'lib/stack.ts', true],
    ['watch.include narrows', { watch: { include: ['lib/**'] } }, [], 'bin/app.js', false],
    ['watch.include keeps its own', { watch: { include: ['lib/**'] } }, [], 'lib/stack.js', true],
    ['an empty watch.include is everything', { watch: { include: [] } }, [], 'bin/app.js', true],
    ['watch.exclude replaces the defaults', { watch: { exclude: ['docs'] } }, [], 'README.md', true],
    ['watch.exclude excludes', { watch: { exclude: ['docs'] } }, [], 'docs/a.md', false],
    ['a string pattern reads as a list', { watch: { exclude: 'docs' } }, [], 'docs/a.md', false],
    [
      'watch.exclude never lets node_modules back',
      { watch: { exclude: [] } },
      [],
      'node_modules/a.js',
      false,
    ],
  ];
  it.each(rows)('%s', (_name, cdkJson, files, path, counted) => {
    expect(counts(project(cdkJson, files), path)).toBe(counted);
  });

  it("cdk.json's output directory is left out, one outside the project is not a pattern", () => {
    const dir = project({ output: 'build/out' });
    expect(counts(dir, 'build/out/manifest.json', join(dir, 'build/out'))).toBe(false);
    expect(
      watchSettings(dir, '/elsewhere/out').exclude.some((pattern) => pattern.includes('elsewhere')),
    ).toBe(false);
  });

  it('skips walking directories everything in is excluded, not ones a pattern excludes only some of', () => {
    const filter = watchFilter(watchSettings(project(), join(tempDir(), 'out')));
    expect(filter.skipsDirectory('node_modules')).toBe(true);
    expect(filter.skipsDirectory('.git')).toBe(true);
    expect(filter.skipsDirectory('lib')).toBe(false);
  });

  it.each([
    ['"watch" not an object', { watch: ['lib'] }],
    ['"watch.include" not patterns', { watch: { include: [1] } }],
    ['"watch.exclude" not patterns', { watch: { exclude: { a: 1 } } }],
  ])('refuses %s with CDK_JSON_INVALID', (_name, cdkJson) => {
    const dir = project(cdkJson);
    let code: string | undefined;
    try {
      watchSettings(dir, join(dir, 'cdk.out'));
    } catch (error) {
      code = isCdkdError(error) ? error.code : 'not a CdkdError';
    }
    expect(code).toBe('CDK_JSON_INVALID');
  });
});
