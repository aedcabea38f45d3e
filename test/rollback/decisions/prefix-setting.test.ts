import { describe, expect, it } from 'vitest';
import { ruleTable } from './rule-table.js';
import { prefixSetting, type PrefixSetting } from '../../../src/rollback/decisions/prefix-setting.js';

const FIX = 'CDKD_PREFIX_USER_SUPPLIED_NAMES=true cdkd rollback MyStack';

// Spec 001, "Names of re-created resources".
describe('prefixSetting', () => {
  ruleTable<{ rule: string; input: Parameters<typeof prefixSetting>[0]; setting: PrefixSetting }>(
    [
      {
        rule: 'the journal records whether the deploy ran with that flag, and the rollback uses the same setting',
        input: { journaled: true, env: 'false', stackName: 'MyStack' },
        setting: { value: true, source: 'journal' },
      },
      {
        rule: 'the journal records the deploy ran without the flag',
        input: { journaled: false, env: 'true', stackName: 'MyStack' },
        setting: { value: false, source: 'journal' },
      },
      {
        rule: 'A journal written by an older cdkd ... The rollback then takes it from CDKD_PREFIX_USER_SUPPLIED_NAMES',
        input: {
          env: 'true',
          cdkJson: { context: { '@cdkd/prefix-user-supplied-names': false } },
          stackName: 'MyStack',
        },
        setting: {
          value: true,
          source: 'env',
          warning: expect.stringContaining('CDKD_PREFIX_USER_SUPPLIED_NAMES'),
        },
      },
      {
        rule: 'then from the cdk.json in the current directory (context key)',
        input: { cdkJson: { context: { '@cdkd/prefix-user-supplied-names': true } }, stackName: 'MyStack' },
        setting: { value: true, source: 'cdk.json', warning: expect.stringContaining('cdk.json') },
      },
      {
        rule: 'then from the cdk.json in the current directory (top-level prefixUserSuppliedNames)',
        input: { cdkJson: { prefixUserSuppliedNames: true }, stackName: 'MyStack' },
        setting: { value: true, source: 'cdk.json', warning: expect.stringContaining('cdk.json') },
      },
      {
        rule: 'then uses the default (no prefix)',
        input: { env: '', cdkJson: { context: {} }, stackName: 'MyStack' },
        setting: { value: false, source: 'default', warning: expect.stringContaining('the default') },
      },
    ],
    ({ input, setting }) => {
      expect(prefixSetting(input)).toEqual(setting);
    },
  );

  it.each([
    { source: 'env', input: { env: '1' } },
    { source: 'cdk.json', input: { cdkJson: { prefixUserSuppliedNames: false } } },
    { source: 'default', input: {} },
  ])(
    'It prints a warning that says which one it chose ($source), with the fix "If the failed deploy ran with the prefix"',
    ({ input }) => {
      const { warning } = prefixSetting({ ...input, stackName: 'MyStack' });
      expect(warning).toContain(FIX);
      expect(warning).toContain('does not record --prefix-user-supplied-names');
    },
  );
});
