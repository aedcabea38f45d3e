import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readProjectConfig } from '../../assembly/index.js';
import { readJsonObject } from '../../assembly/json-file.js';
import { CdkdError } from '../../errors.js';
import type { WatchFilter } from './file-watcher.js';
import { globMatcher } from './watch-globs.js';

/**
 * What the CDK CLI leaves out when `cdk.json` names no `watch.exclude`: files of the project
 * that are not the app's source, in any of the CDK's languages.
 */
export const WATCH_EXCLUDE_DEFAULTS = [
  'README.md',
  'cdk*.json',
  'package*.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'deno.lock',
  'tsconfig*.json',
  '**/*.d.ts',
  'test',
  'requirements*.txt',
  'source.bat',
  '**/__init__.py',
  '**/__pycache__',
  'tests',
  '**/*.sln',
  '**/*.csproj',
  '**/*.fsproj',
  'go.mod',
  'go.sum',
  '**/*test.go',
];

/** Always left out, whatever `cdk.json` says: dotfiles, dot-directories and node_modules. */
const ALWAYS_EXCLUDED = ['**/.*', '**/.*/**', '**/node_modules/**'];

export interface WatchSettings {
  include: string[];
  exclude: string[];
}

/**
 * The patterns `cdkd watch` follows in `dir`: `cdk.json`'s `watch.include` (default `**`) and
 * `watch.exclude` (default the CDK CLI's list, plus `**\/*.js` in a TypeScript project, where
 * `.js` files are the compiler's output as `cdk init` sets it up), always adding the
 * assembly's output directory when it lies inside `dir`, dotfiles and node_modules.
 */
export function watchSettings(dir: string, outdir: string): WatchSettings {
  const file = join(dir, 'cdk.json');
  const raw = readJsonObject(file, 'CDK_JSON_INVALID').watch;
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw new CdkdError('CDK_JSON_INVALID', `${file}: "watch" must be an object.`, {
      hint: 'Fix cdk.json: "watch": { "include": [...], "exclude": [...] }.',
    });
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  const include = patternList(file, 'include', given.include);
  const exclude = patternList(file, 'exclude', given.exclude);
  const defaults = existsSync(join(dir, 'tsconfig.json'))
    ? [...WATCH_EXCLUDE_DEFAULTS, '**/*.js']
    : WATCH_EXCLUDE_DEFAULTS;
  const output = relative(dir, outdir);
  const outputInside =
    output !== '' && !output.startsWith(`..${sep}`) && output !== '..' && !isAbsolute(output);
  return {
    include: include && include.length > 0 ? include : ['**'],
    exclude: [
      ...(exclude ?? defaults),
      ...(outputInside ? [`${output.split(sep).join('/')}/**`] : []),
      ...ALWAYS_EXCLUDED,
    ],
  };
}

/** `watchSettings` of the project in `dir`, its assembly in `--output`, else cdk.json's `output`, else cdk.out. */
export function projectWatchSettings(dir: string, output: string | undefined): WatchSettings {
  return watchSettings(dir, resolve(dir, output ?? readProjectConfig(dir).output ?? 'cdk.out'));
}

/**
 * Whether a change to a path (relative to the watched directory, slash-separated) counts, and
 * whether a directory is left unwatched because everything in it is excluded.
 */
export function watchFilter(settings: WatchSettings): WatchFilter {
  const included = globMatcher(settings.include);
  const excluded = globMatcher(settings.exclude);
  return {
    counts: (path) => included(path) && !excluded(path),
    skipsDirectory: (path) => excluded(`${path}/_`),
  };
}

function patternList(file: string, key: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value as string[];
  throw new CdkdError(
    'CDK_JSON_INVALID',
    `${file}: "watch.${key}" must be a pattern or a list of patterns.`,
    {
      hint: `Fix cdk.json: "watch": { "${key}": ["src/**"] }.`,
    },
  );
}
