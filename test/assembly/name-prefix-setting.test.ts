import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeNamePrefix, namePrefixSetting } from '../../src/assembly/name-prefix-setting.js';
import { tempDir } from './helpers.js';

function project(cdkJson?: unknown): string {
  const dir = tempDir();
  if (cdkJson !== undefined) writeFileSync(join(dir, 'cdk.json'), JSON.stringify(cdkJson));
  return dir;
}

// Spec 001, "Names of re-created resources": the flag, then CDKD_PREFIX_USER_SUPPLIED_NAMES,
// then cdk.json in the current directory, then the default (no prefix).
describe('namePrefixSetting', () => {
  it.each([
    {
      name: 'the flag wins over the env and cdk.json',
      flag: false,
      env: { CDKD_PREFIX_USER_SUPPLIED_NAMES: 'true' },
      cdkJson: { prefixUserSuppliedNames: true },
      expected: { value: false, source: 'flag' },
    },
    {
      name: 'the env wins over cdk.json',
      flag: undefined,
      env: { CDKD_PREFIX_USER_SUPPLIED_NAMES: 'true' },
      cdkJson: { prefixUserSuppliedNames: false },
      expected: { value: true, source: 'env' },
    },
    {
      name: 'the env reads 0 as false',
      flag: undefined,
      env: { CDKD_PREFIX_USER_SUPPLIED_NAMES: '0' },
      cdkJson: { prefixUserSuppliedNames: true },
      expected: { value: false, source: 'env' },
    },
    {
      name: 'an empty env value is no value',
      flag: undefined,
      env: { CDKD_PREFIX_USER_SUPPLIED_NAMES: '' },
      cdkJson: { prefixUserSuppliedNames: true },
      expected: { value: true, source: 'cdk.json' },
    },
    {
      name: 'cdk.json, when the flag and env are silent',
      flag: undefined,
      env: {},
      cdkJson: { prefixUserSuppliedNames: true },
      expected: { value: true, source: 'cdk.json' },
    },
    {
      name: 'the default is no prefix',
      flag: undefined,
      env: {},
      cdkJson: undefined,
      expected: { value: false, source: 'default' },
    },
  ])('$name', ({ flag, env, cdkJson, expected }) => {
    expect(namePrefixSetting({ flag, env, cwd: project(cdkJson) })).toEqual(expected);
  });

  it('refuses an env value that is neither true nor false, naming it', () => {
    expect(() =>
      namePrefixSetting({ env: { CDKD_PREFIX_USER_SUPPLIED_NAMES: 'yes' }, cwd: project() }),
    ).toThrow(
      expect.objectContaining({ code: 'PREFIX_SETTING_INVALID', message: expect.stringContaining('=yes') }),
    );
  });

  it('refuses a cdk.json value that is not a boolean', () => {
    expect(() => namePrefixSetting({ env: {}, cwd: project({ prefixUserSuppliedNames: 'true' }) })).toThrow(
      expect.objectContaining({ code: 'CDK_JSON_INVALID' }),
    );
  });

  it('does not read cdk.json when the flag decides', () => {
    expect(
      namePrefixSetting({ flag: true, env: {}, cwd: project({ prefixUserSuppliedNames: 'bad' }) }),
    ).toEqual({
      value: true,
      source: 'flag',
    });
  });

  it('says which setting it chose and where from', () => {
    expect(describeNamePrefix({ value: true, source: 'env' })).toBe(
      'the stack-name prefix (from CDKD_PREFIX_USER_SUPPLIED_NAMES)',
    );
    expect(describeNamePrefix({ value: false, source: 'default' })).toBe('no prefix (from the default)');
  });
});
