import { describe, expect, it } from 'vitest';
import { trustsCaller, type TrustCaller } from '../../src/sandbox/services/sts/trust-policy.js';

const CALLER = '111111111111';
const allow = (principal: unknown, extra: Record<string, unknown> = {}) => ({
  Statement: [{ Effect: 'Allow', Principal: principal, Action: 'sts:AssumeRole', ...extra }],
});

describe('trustsCaller: whether a trust policy lets an account assume the role', () => {
  it.each<[string, unknown, TrustCaller, boolean]>([
    ['the account root ARN', allow({ AWS: `arn:aws:iam::${CALLER}:root` }), { accountId: CALLER }, true],
    ['the bare account id', allow({ AWS: CALLER }), { accountId: CALLER }, true],
    ['a role in the account', allow({ AWS: `arn:aws:iam::${CALLER}:role/ci` }), { accountId: CALLER }, true],
    [
      'one of a list',
      allow({ AWS: ['arn:aws:iam::222222222222:root', CALLER] }),
      { accountId: CALLER },
      true,
    ],
    ['another account only', allow({ AWS: 'arn:aws:iam::222222222222:root' }), { accountId: CALLER }, false],
    ['AWS: *', allow({ AWS: '*' }), { accountId: CALLER }, true],
    ['Principal: *', allow('*'), { accountId: CALLER }, true],
    ['a service principal only', allow({ Service: 'lambda.amazonaws.com' }), { accountId: CALLER }, false],
    ['no statement', { Statement: [] }, { accountId: CALLER }, false],
    [
      'another action',
      { Statement: [{ Effect: 'Allow', Principal: { AWS: CALLER }, Action: 'sts:TagSession' }] },
      { accountId: CALLER },
      false,
    ],
    [
      'an Allow and a Deny naming the caller',
      {
        Statement: [
          { Effect: 'Allow', Principal: { AWS: '*' }, Action: 'sts:AssumeRole' },
          { Effect: 'Deny', Principal: { AWS: CALLER }, Action: 'sts:*' },
        ],
      },
      { accountId: CALLER },
      false,
    ],
    [
      'ExternalId required and sent',
      allow({ AWS: CALLER }, { Condition: { StringEquals: { 'sts:ExternalId': 'x-1' } } }),
      { accountId: CALLER, externalId: 'x-1' },
      true,
    ],
    [
      'ExternalId required, another sent',
      allow({ AWS: CALLER }, { Condition: { StringEquals: { 'sts:ExternalId': 'x-1' } } }),
      { accountId: CALLER, externalId: 'x-2' },
      false,
    ],
    [
      'ExternalId required, none sent',
      allow({ AWS: CALLER }, { Condition: { StringEquals: { 'sts:ExternalId': 'x-1' } } }),
      { accountId: CALLER },
      false,
    ],
    [
      'AWS: * limited by aws:PrincipalAccount (StringLike)',
      allow({ AWS: '*' }, { Condition: { StringLike: { 'aws:PrincipalAccount': '1111*' } } }),
      { accountId: CALLER },
      true,
    ],
    [
      'AWS: * limited to another aws:PrincipalAccount',
      allow({ AWS: '*' }, { Condition: { StringEquals: { 'aws:PrincipalAccount': '222222222222' } } }),
      { accountId: CALLER },
      false,
    ],
    [
      'a condition key the sandbox does not read',
      allow({ AWS: CALLER }, { Condition: { StringEquals: { 'aws:PrincipalTag/team': 'x' } } }),
      { accountId: CALLER },
      false,
    ],
  ])('%s', (_name, policy, caller, expected) => {
    expect(trustsCaller(policy, caller)).toBe(expected);
  });
});
