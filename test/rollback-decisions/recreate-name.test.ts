import { describe, expect, it } from 'vitest';
import { recreateName } from '../../src/rollback-decisions/recreate-name.js';

// Spec 001, "Names of re-created resources": a re-create gets the name the failed deploy
// would have given it, except a resource an earlier deploy made under the other setting,
// which keeps its name (a line), and one neither setting names (a warning).
const ROLE = 'AWS::IAM::Role';
const POLICY = 'AWS::IAM::ManagedPolicy';
const input = (type: string, properties: Record<string, unknown>, physicalId: string, prefix: boolean) => ({
  type,
  properties,
  physicalId,
  stackName: 'App',
  prefix,
});

describe('recreateName', () => {
  it.each([
    [
      'a type the setting does not rewrite',
      input('AWS::SQS::Queue', { QueueName: 'q' }, 'https://q', true),
      'as-setting',
      undefined,
    ],
    ['a generated name', input(ROLE, {}, 'App-Role-ABC', true), 'as-setting', undefined],
    [
      'made under the failed deploy’s setting (prefix)',
      input(ROLE, { RoleName: 'svc' }, 'App-svc', true),
      'as-setting',
      'App-svc',
    ],
    [
      'made under the failed deploy’s setting (none)',
      input(ROLE, { RoleName: 'svc' }, 'svc', false),
      'as-setting',
      'svc',
    ],
    [
      'IAM compares names regardless of case',
      input(ROLE, { RoleName: 'svc' }, 'APP-SVC', true),
      'as-setting',
      'App-svc',
    ],
    [
      'a managed policy is named through its ARN',
      input(POLICY, { ManagedPolicyName: 'read' }, 'arn:aws:iam::000000000000:policy/App-read', true),
      'as-setting',
      'App-read',
    ],
  ])('%s: sent as the setting makes it', (_name, given, kind, name) => {
    expect(recreateName(given)).toEqual({ kind, ...(name ? { name } : {}) });
  });

  it('made without the prefix, the failed deploy ran with it: keeps its name, with a line', () => {
    expect(recreateName(input(ROLE, { RoleName: 'svc' }, 'svc', true))).toEqual({
      kind: 'from-physical-id',
      name: 'svc',
      note: expect.stringContaining('made without --prefix-user-supplied-names'),
      warning: false,
    });
  });

  it('made with the prefix, the failed deploy ran without it: keeps its name, with a line', () => {
    expect(
      recreateName(
        input(POLICY, { ManagedPolicyName: 'read' }, 'arn:aws:iam::000000000000:policy/App-read', false),
      ),
    ).toEqual({
      kind: 'from-physical-id',
      name: 'App-read',
      note: expect.stringContaining('made with --prefix-user-supplied-names'),
      warning: false,
    });
  });

  it('a name neither setting gives: keeps the physical id’s name, with a warning', () => {
    expect(recreateName(input(ROLE, { RoleName: 'svc' }, 'Other-svc', true))).toEqual({
      kind: 'from-physical-id',
      name: 'Other-svc',
      note: expect.stringContaining('neither name setting gives its name Other-svc'),
      warning: true,
    });
  });
});
