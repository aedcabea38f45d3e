import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireApprovalSetting } from '../../src/assembly/require-approval-setting.js';
import type { ApprovalLevel } from '../../src/assembly/approval-level.js';
import { tempDir } from './helpers.js';

function project(cdkJson?: unknown): string {
  const dir = tempDir();
  if (cdkJson !== undefined) writeFileSync(join(dir, 'cdk.json'), JSON.stringify(cdkJson));
  return dir;
}

// The flag, then CDKD_REQUIRE_APPROVAL, then cdk.json's requireApproval, then broadening.
describe('requireApprovalSetting', () => {
  it.each<{
    name: string;
    flag?: ApprovalLevel;
    env: Record<string, string>;
    cdkJson?: unknown;
    expected: ApprovalLevel;
  }>([
    {
      name: 'the flag wins over the env and cdk.json',
      flag: 'never',
      env: { CDKD_REQUIRE_APPROVAL: 'any-change' },
      cdkJson: { requireApproval: 'any-change' },
      expected: 'never',
    },
    {
      name: 'the env wins over cdk.json',
      env: { CDKD_REQUIRE_APPROVAL: 'never' },
      cdkJson: { requireApproval: 'any-change' },
      expected: 'never',
    },
    {
      name: 'an empty env is silent',
      env: { CDKD_REQUIRE_APPROVAL: '' },
      cdkJson: { requireApproval: 'any-change' },
      expected: 'any-change',
    },
    {
      name: 'cdk.json, when the flag and env are silent',
      env: {},
      cdkJson: { requireApproval: 'never' },
      expected: 'never',
    },
    {
      name: 'broadening without any of them',
      env: {},
      cdkJson: { app: 'node app.js' },
      expected: 'broadening',
    },
    { name: 'broadening without a cdk.json', env: {}, expected: 'broadening' },
  ])('$name', ({ flag, env, cdkJson, expected }) => {
    expect(requireApprovalSetting({ flag, env, cwd: project(cdkJson) })).toBe(expected);
  });

  it('refuses an env value that names no level', () => {
    expect(() =>
      requireApprovalSetting({ env: { CDKD_REQUIRE_APPROVAL: 'sometimes' }, cwd: project() }),
    ).toThrow(expect.objectContaining({ code: 'APPROVAL_SETTING_INVALID' }));
  });

  it('refuses a cdk.json requireApproval that names no level, naming the field', () => {
    expect(() => requireApprovalSetting({ env: {}, cwd: project({ requireApproval: 'always' }) })).toThrow(
      expect.objectContaining({
        code: 'CDK_JSON_INVALID',
        message: expect.stringContaining('"requireApproval" must be one of never, any-change, broadening'),
      }),
    );
  });
});
