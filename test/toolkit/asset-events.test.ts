import { describe, expect, it } from 'vitest';
import type { AssetEvent } from '../../src/assets/index.js';
import { assetEventNote } from '../../src/toolkit/bootstrap/asset-events.js';

const run = (assetId: string, first: boolean): AssetEvent => ({
  type: 'build-command',
  assetId,
  command: ['make', 'image'],
  cwd: '/app/cdk.out',
  first,
});

describe('assetEventNote', () => {
  it('announces a build command on its first run with the command, where it runs and whose credentials', () => {
    const lines: string[] = [];
    const onEvent = assetEventNote((line) => lines.push(line), false);
    onEvent(run('a1', true));
    onEvent(run('a2', false));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('make image');
    expect(lines[0]).toContain('/app/cdk.out');
    expect(lines[0]).toContain('credentials');
    expect(lines[0]).toContain('a1');
  });

  it('shows repeats only under --verbose', () => {
    const lines: string[] = [];
    const onEvent = assetEventNote((line) => lines.push(line), true);
    onEvent(run('a1', true));
    onEvent(run('a2', false));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('Running the build command of asset a2 again: make image');
  });

  it('says when an image was pushed, and an image already there only under --verbose', () => {
    const pushed = (action: 'pushed' | 'skipped'): AssetEvent => ({
      type: 'pushed',
      publication: { assetId: 'h', displayName: 'Img', repositoryName: 'repo', imageTag: 'h', action },
    });
    const quiet: string[] = [];
    const loud: string[] = [];
    for (const [lines, verbose] of [
      [quiet, false],
      [loud, true],
    ] as const) {
      const onEvent = assetEventNote((line) => lines.push(line), verbose);
      onEvent(pushed('pushed'));
      onEvent(pushed('skipped'));
    }
    expect(quiet).toEqual(['Pushed image asset Img to repo:h']);
    expect(loud).toHaveLength(2);
  });
});
