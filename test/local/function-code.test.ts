import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StackArtifact } from '../../src/assembly/index.js';
import { localCode } from '../../src/local/function-code.js';
import type { LocalFunction } from '../../src/local/function-target.js';
import { tempDir } from '../assembly/helpers.js';

function fn(outputDir: string, properties: Record<string, unknown>, assetPath?: string): LocalFunction {
  return {
    stack: { assemblyDir: outputDir } as StackArtifact,
    logicalId: 'Fn',
    properties,
    metadata: assetPath === undefined ? {} : { 'aws:asset:path': assetPath },
  };
}

// The path rule of the cloud assembly checks, as cdkd local applies it before running code.
describe('localCode', () => {
  it('takes a relative asset path inside the output directory', () => {
    const out = tempDir();
    mkdirSync(join(out, 'asset.abc'));
    expect(localCode(fn(out, {}, 'asset.abc'), out, 'App/Fn')).toEqual({ taskRoot: join(out, 'asset.abc') });
  });

  it('refuses a relative asset path leaving the output directory, before anything runs', () => {
    const out = tempDir();
    mkdirSync(join(out, 'inner'));
    expect(() =>
      localCode(fn(join(out, 'inner'), {}, '../../escaped'), join(out, 'inner'), 'App/Fn'),
    ).toThrow(
      expect.objectContaining({
        code: 'ASSET_PATH_ESCAPES',
        message: expect.stringContaining('../../escaped'),
      }),
    );
  });

  it('accepts an absolute asset path outside the output directory with a warning', () => {
    const out = tempDir();
    const elsewhere = tempDir();
    const code = localCode(fn(out, {}, elsewhere), out, 'App/Fn');
    expect(code.taskRoot).toBe(elsewhere);
    expect(code.warning).toContain(elsewhere);
    expect(code.warning).toContain(out);
  });

  it('writes inline code as the handler module, refusing a handler that climbs out', () => {
    const out = tempDir();
    const inline = localCode(fn(out, { Code: { ZipFile: 'x' }, Handler: 'lib/app.handler' }), out, 'App/Fn');
    expect(inline.temporary).toBe(true);
    expect(readFileSync(join(inline.taskRoot, 'lib', 'app.js'), 'utf8')).toBe('x');
    expect(() =>
      localCode(fn(out, { Code: { ZipFile: 'x' }, Handler: '../../evil.handler' }), out, 'App/Fn'),
    ).toThrow(expect.objectContaining({ code: 'ASSET_PATH_ESCAPES' }));
  });

  it('says when there is no code on this machine', () => {
    const out = tempDir();
    expect(() => localCode(fn(out, { Code: { S3Bucket: 'b', S3Key: 'k' } }), out, 'App/Fn')).toThrow(
      expect.objectContaining({ code: 'LOCAL_CODE_UNAVAILABLE' }),
    );
    expect(existsSync(out)).toBe(true);
  });
});
