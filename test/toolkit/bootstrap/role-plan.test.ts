import { describe, expect, it } from 'vitest';
import {
  desiredRole,
  roleChanges,
  trustPolicy,
  trustedAccountsOf,
  type RoleFlags,
  type RoleShape,
} from '../../../src/toolkit/bootstrap/role-plan.js';
import { stackQualifier } from '../../../src/toolkit/bootstrap/role-names.js';

const OWN = '222222222222';
const ADMIN = 'arn:aws:iam::aws:policy/AdministratorAccess';
const READ = 'arn:aws:iam::aws:policy/ReadOnlyAccess';
const flags = (extra: Partial<RoleFlags> = {}): RoleFlags => ({
  ownAccount: OWN,
  defaultPolicies: [ADMIN],
  ...extra,
});
const shape = (extra: Partial<RoleShape> = {}): RoleShape => ({
  trustedAccounts: [OWN],
  policies: [ADMIN],
  tags: {},
  ...extra,
});

describe('desiredRole: what the flags ask for, a flag left out keeping what the role has', () => {
  it.each<[string, RoleFlags, RoleShape | undefined, RoleShape]>([
    ['new role, no flags: own account, default policy', flags(), undefined, shape()],
    [
      'new role, --trust: own account and the trusted, sorted',
      flags({ trust: ['111111111111', '333333333333'] }),
      undefined,
      shape({ trustedAccounts: ['111111111111', OWN, '333333333333'] }),
    ],
    [
      'existing role, no --trust: its trust kept',
      flags(),
      shape({ trustedAccounts: ['111111111111', OWN] }),
      shape({ trustedAccounts: ['111111111111', OWN] }),
    ],
    [
      'existing role, --trust: replaced (own account stays)',
      flags({ trust: ['333333333333'] }),
      shape({ trustedAccounts: ['111111111111', OWN] }),
      shape({ trustedAccounts: [OWN, '333333333333'] }),
    ],
    [
      'existing role, no --execution-policies: its policies kept',
      flags(),
      shape({ policies: [READ] }),
      shape({ policies: [READ] }),
    ],
    ['--execution-policies replace', flags({ policies: [READ] }), shape(), shape({ policies: [READ] })],
    [
      'boundary and tags given',
      flags({ permissionsBoundary: 'arn:aws:iam::222222222222:policy/b', tags: { team: 'a' } }),
      undefined,
      shape({ permissionsBoundary: 'arn:aws:iam::222222222222:policy/b', tags: { team: 'a' } }),
    ],
    [
      'boundary and tags left out: kept',
      flags(),
      shape({ permissionsBoundary: 'arn:b', tags: { team: 'a' } }),
      shape({ permissionsBoundary: 'arn:b', tags: { team: 'a' } }),
    ],
  ])('%s', (_name, given, current, expected) => {
    expect(desiredRole(given, current)).toEqual(expected);
  });
});

describe('roleChanges: the calls that converge a role', () => {
  it.each<[string, RoleShape, RoleShape | undefined, unknown[]]>([
    ['no role: create it', shape(), undefined, [{ kind: 'create', shape: shape() }]],
    ['the same: nothing (a re-run converges)', shape(), shape(), []],
    [
      'trust widened',
      shape({ trustedAccounts: ['111111111111', OWN] }),
      shape(),
      [{ kind: 'trust', from: [OWN], to: ['111111111111', OWN] }],
    ],
    [
      'policy swapped',
      shape({ policies: [READ] }),
      shape(),
      [
        { kind: 'attach', policy: READ },
        { kind: 'detach', policy: ADMIN },
      ],
    ],
    ['boundary set', shape({ permissionsBoundary: 'arn:b' }), shape(), [{ kind: 'boundary', to: 'arn:b' }]],
    [
      'tag changed and one removed',
      shape({ tags: { team: 'b' } }),
      shape({ tags: { team: 'a', old: 'x' } }),
      [
        { kind: 'tag', tags: { team: 'b' } },
        { kind: 'untag', keys: ['old'] },
      ],
    ],
  ])('%s', (_name, desired, current, expected) => {
    expect(roleChanges(desired, current)).toEqual(expected);
  });
});

describe('trust policies', () => {
  it('round-trip: the accounts written are the accounts read', () => {
    const accounts = ['111111111111', OWN];
    expect(trustedAccountsOf(trustPolicy('aws', accounts))).toEqual(accounts);
  });

  it('reads account roots and bare ids, not roles, services or Deny statements', () => {
    expect(
      trustedAccountsOf({
        Statement: [
          { Effect: 'Allow', Principal: { AWS: ['333333333333', 'arn:aws:iam::444444444444:role/x'] } },
          { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
          { Effect: 'Deny', Principal: { AWS: 'arn:aws:iam::555555555555:root' } },
        ],
      }),
    ).toEqual(['333333333333']);
  });
});

describe('stackQualifier: the qualifier of the deploy role a stack names', () => {
  it.each([
    [
      'arn:${AWS::Partition}:iam::111111111111:role/cdk-hnb659fds-deploy-role-111111111111-us-east-1',
      'hnb659fds',
    ],
    ['arn:aws:iam::111111111111:role/cdk-custom1-deploy-role-111111111111-eu-west-1', 'custom1'],
    [undefined, 'hnb659fds'],
    ['arn:aws:iam::111111111111:role/SomethingElse', 'hnb659fds'],
  ])('%s -> %s', (arn, expected) => {
    expect(stackQualifier(arn)).toBe(expected);
  });
});
