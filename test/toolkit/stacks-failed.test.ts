import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { stacksFailed } from '../../src/toolkit/stacks/stacks-failed.js';

const failed = (id: string, hint = 'Fix the cause and run cdkd deploy again.', exitCode: 1 | 130 = 1) => ({
  id,
  error: new CdkdError('DEPLOY_FAILED', `Deploy of ${id} failed: Q create failed.`, { hint, exitCode }),
});

describe('stacksFailed: what a command over several stacks fails with', () => {
  it("one failed stack, nothing left out: that stack's own error", () => {
    const only = failed('A');
    expect(stacksFailed({ succeeded: ['B'], failed: [only], notStarted: [] }, 'deployed')).toBe(only.error);
  });

  it('one failed stack and stacks never started: its error, naming them', () => {
    const error = stacksFailed({ succeeded: [], failed: [failed('A')], notStarted: ['B', 'C'] }, 'deployed');
    expect(error).toMatchObject({
      code: 'DEPLOY_FAILED',
      message: 'Deploy of A failed: Q create failed. Not deployed, as nothing starts after a failure: B, C.',
      hint: 'Fix the cause and run cdkd deploy again.',
      exitCode: 1,
    });
  });

  it('several failed stacks: every one listed, each hint once', () => {
    const error = stacksFailed(
      {
        succeeded: [],
        failed: [failed('A'), failed('B'), failed('C', 'cdkd rollback C reverts it.')],
        notStarted: ['D'],
      },
      'destroyed',
    ) as CdkdError;
    expect(error.code).toBe('DEPLOY_FAILED');
    expect(error.message.split('\n')).toEqual([
      '3 stacks failed:',
      '  - Deploy of A failed: Q create failed.',
      '  - Deploy of B failed: Q create failed.',
      '  - Deploy of C failed: Q create failed.',
      'Not destroyed, as nothing starts after a failure: D.',
    ]);
    expect(error.hint).toBe('Fix the cause and run cdkd deploy again.\n  cdkd rollback C reverts it.');
    expect(error.exitCode).toBe(1);
  });

  it.each([
    ['all interrupted', [130, 130], 130],
    ['one interrupted, one failed', [130, 1], 1],
  ] as const)('several failed stacks, %s: exit %s', (_case, codes, exitCode) => {
    const failures = codes.map((code, index) => failed(`S${index}`, 'hint', code));
    expect(stacksFailed({ succeeded: [], failed: failures, notStarted: [] }, 'deployed')).toMatchObject({
      exitCode,
    });
  });

  it('several failures of different kinds: STACKS_FAILED', () => {
    const other = { id: 'B', error: new Error('socket hang up') };
    expect(
      stacksFailed({ succeeded: [], failed: [failed('A'), other], notStarted: [] }, 'deployed'),
    ).toMatchObject({ code: 'STACKS_FAILED', message: expect.stringContaining('  - socket hang up') });
  });
});
