import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProjectConfig, resolveAppSource } from '../../src/assembly/project-config.js';
import { tempDir, writeAssembly } from './helpers.js';

function project(cdkJson?: unknown): string {
  const dir = tempDir();
  if (cdkJson !== undefined) writeFileSync(join(dir, 'cdk.json'), JSON.stringify(cdkJson));
  return dir;
}

function source(cwd: string, app?: string, env: NodeJS.ProcessEnv = {}) {
  return resolveAppSource({ ...(app ? { app } : {}), env, config: readProjectConfig(cwd), cwd });
}

describe('app command precedence', () => {
  it.each([
    {
      name: '--app wins over CDKD_APP and cdk.json',
      app: 'flag-app',
      env: { CDKD_APP: 'env-app' },
      expected: 'flag-app',
    },
    {
      name: 'CDKD_APP wins over cdk.json',
      app: undefined,
      env: { CDKD_APP: 'env-app' },
      expected: 'env-app',
    },
    { name: "cdk.json's app is the fallback", app: undefined, env: {}, expected: 'json-app' },
  ])('$name', ({ app, env, expected }) => {
    const cwd = project({ app: 'json-app' });
    expect(source(cwd, app, env)).toEqual({ kind: 'command', command: expected });
  });

  it('refuses when no app is configured anywhere', () => {
    expect(() => source(project())).toThrow(expect.objectContaining({ code: 'APP_MISSING' }));
  });

  it('reads a directory holding manifest.json as a synthesized assembly', () => {
    const cwd = project();
    writeAssembly(join(cwd, 'out'), [{ id: 'A' }]);
    expect(source(cwd, 'out')).toEqual({ kind: 'assembly', directory: join(cwd, 'out') });
  });

  it('refuses a directory without manifest.json', () => {
    const cwd = project();
    mkdirSync(join(cwd, 'empty'));
    expect(() => source(cwd, 'empty')).toThrow(expect.objectContaining({ code: 'ASSEMBLY_NOT_FOUND' }));
  });

  it('refuses a missing path instead of running it as a command', () => {
    expect(() => source(project(), './no/such/cdk.out')).toThrow(
      expect.objectContaining({ code: 'APP_NOT_FOUND' }),
    );
  });

  it('reports a malformed cdk.json clearly', () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'cdk.json'), '{"app": ');
    expect(() => readProjectConfig(cwd)).toThrow(expect.objectContaining({ code: 'CDK_JSON_INVALID' }));
  });
});
