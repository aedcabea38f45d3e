import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAssetPaths } from '../../src/assembly/asset-paths.js';
import type { AssetManifest } from '../../src/assembly/types.js';
import { tempDir } from './helpers.js';

/** An output directory with a Stage sub-assembly, and a directory outside it. */
function layout() {
  const base = tempDir();
  const out = join(base, 'cdk.out');
  const stage = join(out, 'assembly-Prod');
  const elsewhere = join(base, 'src', 'lambda');
  mkdirSync(stage, { recursive: true });
  mkdirSync(elsewhere, { recursive: true });
  return { base, out, stage, elsewhere };
}

function fileManifest(manifestDir: string, path: string): AssetManifest {
  return {
    file: join(manifestDir, 'Stack.assets.json'),
    files: [
      {
        hash: 'abc',
        sourcePath: path,
        absoluteSourcePath: resolve(manifestDir, path),
        packaging: 'zip',
        destinations: [{ id: 'd', bucketName: 'assets-bucket', objectKey: 'abc.zip' }],
      },
    ],
    containers: [],
  };
}

function imageManifest(manifestDir: string, directory: string): AssetManifest {
  return {
    file: join(manifestDir, 'Stack.assets.json'),
    files: [],
    containers: [
      {
        hash: 'def',
        directory,
        absoluteDirectory: resolve(manifestDir, directory),
        destinations: [{ id: 'd', repositoryName: 'repo', imageTag: 'def' }],
      },
    ],
  };
}

type Layout = ReturnType<typeof layout>;

describe('checkAssetPaths', () => {
  it.each<{
    rule: string;
    manifest: (l: Layout) => AssetManifest;
    outputDir?: (l: Layout) => string;
    warning?: RegExp;
  }>([
    {
      rule: 'a staged relative path inside the output directory passes silently',
      manifest: (l) => fileManifest(l.out, 'asset.abc'),
    },
    {
      rule: "a Stage manifest's ../asset.<hash> passes (measured against the app's output directory)",
      manifest: (l) => fileManifest(l.stage, '../asset.abc'),
    },
    {
      rule: 'an absolute path inside the output directory passes silently',
      manifest: (l) => fileManifest(l.out, join(l.out, 'asset.abc')),
    },
    {
      rule: 'an absolute path outside is accepted with a warning naming the directory and the destination',
      manifest: (l) => fileManifest(l.out, l.elsewhere),
      warning:
        /"\/.*src\/lambda" is outside the output directory .*cdk\.out; the contents of .*src\/lambda go to s3:\/\/assets-bucket\/abc\.zip/,
    },
    {
      rule: 'an absolute Docker directory outside is accepted with a warning naming the image build',
      manifest: (l) => imageManifest(l.out, l.elsewhere),
      warning:
        /source\.directory .* is outside the output directory .*go to a docker image build pushed to repo:def/,
    },
    {
      rule: 'the output directory itself, spelled relative, is warned about',
      manifest: (l) => fileManifest(l.out, '.'),
      warning:
        /names the output directory .*cdk\.out itself; the whole directory goes to s3:\/\/assets-bucket\/abc\.zip/,
    },
    {
      rule: "the output directory itself, spelled from a Stage manifest as '..', is warned about",
      manifest: (l) => fileManifest(l.stage, '..'),
      warning: /names the output directory/,
    },
    {
      rule: 'the output directory itself, spelled absolute, is warned about',
      manifest: (l) => fileManifest(l.out, l.out),
      warning: /names the output directory/,
    },
    {
      rule: 'the output directory itself, through a symbolic link, is warned about',
      manifest: (l) => {
        symlinkSync(l.out, join(l.base, 'link-to-out'));
        return fileManifest(l.out, join(l.base, 'link-to-out'));
      },
      warning: /names the output directory/,
    },
    {
      rule: 'the output directory itself, as its realpath when it was named through a link, is warned about',
      manifest: (l) => {
        symlinkSync(l.out, join(l.base, 'out-link'));
        return fileManifest(join(l.base, 'out-link'), l.out);
      },
      outputDir: (l) => join(l.base, 'out-link'),
      warning: /names the output directory/,
    },
  ])('$rule', ({ manifest, outputDir, warning }) => {
    const l = layout();
    const warnings = checkAssetPaths([manifest(l)], outputDir ? outputDir(l) : l.out);
    if (warning) {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(warning);
    } else {
      expect(warnings).toEqual([]);
    }
  });

  it.each([
    {
      rule: 'a relative source.path leaving the output directory',
      manifest: (l: Layout) => fileManifest(l.out, '../src/lambda'),
    },
    {
      rule: 'a relative path leaving it from a Stage manifest',
      manifest: (l: Layout) => fileManifest(l.stage, '../../src/lambda'),
    },
    {
      rule: 'a relative source.directory leaving it',
      manifest: (l: Layout) => imageManifest(l.out, '../src'),
    },
  ])('refuses $rule, saying where it resolves', ({ manifest }) => {
    const l = layout();
    expect(() => checkAssetPaths([manifest(l)], l.out)).toThrow(
      expect.objectContaining({
        code: 'ASSET_PATH_ESCAPES',
        exitCode: 1,
        message: expect.stringMatching(/resolves to .*src.*, outside the output directory .*cdk\.out\.$/),
      }),
    );
  });
});
