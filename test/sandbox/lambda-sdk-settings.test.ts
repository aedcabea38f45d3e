import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installFolder, sdkPackageOf } from '../../src/lambda-runtime/node/sdk-cache.js';
import {
  compareVersions,
  defaultSdkCacheDir,
  sdkSettings,
} from '../../src/lambda-runtime/node/sdk-settings.js';
import { REPO_ROOT } from '../helpers/cli.js';

// What a function's process is told to install SDK packages with, and which imports it installs.
describe('sdkPackageOf: the @aws-sdk package an import names', () => {
  const rows: Array<[string, string | undefined]> = [
    ['@aws-sdk/client-connect', '@aws-sdk/client-connect'],
    ['@aws-sdk/client-connect/dist-cjs/index.js', '@aws-sdk/client-connect'],
    ['@aws-sdk/lib-dynamodb', '@aws-sdk/lib-dynamodb'],
    ['@smithy/core', undefined],
    ['aws-sdk', undefined],
    ['@aws-sdk/', undefined],
    ['@aws-sdk/../escape', undefined],
    ['./@aws-sdk/client-s3', undefined],
  ];
  it.each(rows)('%s', (specifier, name) => {
    expect(sdkPackageOf(specifier)).toBe(name);
  });
});

describe('the settings the sandbox hands a Node.js function', () => {
  it('the release is the newest client cdkd depends on; its cores are pinned as installed', () => {
    const settings = sdkSettings('/cache', {
      PATH: '/bin',
      HOME: '/home/me',
      npm_config_prefix: '/project',
    })!;
    const version = (path: string) =>
      (
        JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', path, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    const dependencies = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies;
    const clients = Object.entries(dependencies).filter(([name]) => name.startsWith('@aws-sdk/client-'));
    expect(settings.release).toBe(
      clients
        .map(([, pinned]) => pinned)
        .sort(compareVersions)
        .at(-1),
    );
    expect(settings.pins).toEqual({
      '@aws-sdk/core': version('@aws-sdk/core'),
      '@smithy/core': version('@smithy/core'),
    });
    // npm gets its home and nothing that would redirect where it installs.
    expect(settings.npm.env).toEqual({ PATH: '/bin', HOME: '/home/me' });
    expect(installFolder(settings, '@aws-sdk/client-connect')).toBe(
      `/cache/${settings.release}/client-connect`,
    );
  });

  it('the cache: CDKD_SANDBOX_SDK_CACHE, else the user cache folder', () => {
    expect(defaultSdkCacheDir({ CDKD_SANDBOX_SDK_CACHE: '/mine' })).toBe('/mine');
    expect(defaultSdkCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/cdkd/aws-sdk-js-v3');
  });

  it.each([
    ['3.1177.0', '3.1169.0', 1],
    ['3.669.0', '3.1169.0', -1],
    ['3.1169.0', '3.1169.0', 0],
  ])('compareVersions(%s, %s) has the sign of %d', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});
