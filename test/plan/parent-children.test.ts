import { describe, expect, it } from 'vitest';
import {
  CHILD_LINKS,
  failedRestoreWarning,
  recordOnFailedRestore,
  recordOnParentLoss,
  type ParentLossInput,
} from '../../src/plan/parent-children.js';

const ids = (...values: string[]) => new Set(values);

/** Spec 002 "Children deleted with the target": every child type, named by its parent property. */
const CHILD_ROWS: Array<[childType: string, property: string, parentType: string, value: string]> = [
  ['AWS::Lambda::Permission', 'FunctionName', 'AWS::Lambda::Function', 'arn:fn'],
  ['AWS::Lambda::Version', 'FunctionName', 'AWS::Lambda::Function', 'fn'],
  ['AWS::Lambda::Alias', 'FunctionName', 'AWS::Lambda::Function', 'fn'],
  ['AWS::Lambda::EventInvokeConfig', 'FunctionName', 'AWS::Lambda::Function', 'fn'],
  ['AWS::SNS::Subscription', 'TopicArn', 'AWS::SNS::Topic', 'arn:topic'],
  ['AWS::S3::BucketPolicy', 'Bucket', 'AWS::S3::Bucket', 'bucket'],
  ['AWS::Logs::LogStream', 'LogGroupName', 'AWS::Logs::LogGroup', 'group'],
  ['AWS::Logs::MetricFilter', 'LogGroupName', 'AWS::Logs::LogGroup', 'group'],
  ['AWS::Logs::SubscriptionFilter', 'LogGroupName', 'AWS::Logs::LogGroup', 'group'],
  ['AWS::IAM::RolePolicy', 'RoleName', 'AWS::IAM::Role', 'role'],
  ['AWS::IAM::UserPolicy', 'UserName', 'AWS::IAM::User', 'user'],
  ['AWS::IAM::GroupPolicy', 'GroupName', 'AWS::IAM::Group', 'group'],
];

describe('a child whose parent is deleted to be re-created (spec 002)', () => {
  it.each(CHILD_ROWS)(
    '%s on its %s: AWS deleted it with the parent, so its record is dropped',
    (type, property, parentType, value) => {
      const input: ParentLossInput = {
        type,
        properties: { [property]: value },
        parentType,
        parentIds: ids(value),
      };
      expect(recordOnParentLoss(input)).toEqual({ kind: 'drop' });
    },
  );

  it('every child row of the table is covered above, and a function URL has none', () => {
    const children = Object.entries(CHILD_LINKS)
      .filter(([, links]) => links.some((link) => link.role === 'child'))
      .map(([type]) => type)
      .sort();
    expect(children).toEqual(CHILD_ROWS.map(([type]) => type).sort());
    expect(CHILD_LINKS['AWS::Lambda::Url']).toBeUndefined();
  });

  it('a child the same deploy moves onto the re-created parent keeps its record: it is replaced as usual', () => {
    expect(
      recordOnParentLoss({
        type: 'AWS::Lambda::Permission',
        properties: { FunctionName: 'other-fn' },
        parentType: 'AWS::Lambda::Function',
        parentIds: ids('fn', 'arn:fn'),
      }),
    ).toEqual({ kind: 'keep' });
  });

  it('a resource of a type that is no child of the parent type keeps its record', () => {
    expect(
      recordOnParentLoss({
        type: 'AWS::SSM::Parameter',
        properties: { Value: 'fn' },
        parentType: 'AWS::Lambda::Function',
        parentIds: ids('fn'),
      }),
    ).toEqual({ kind: 'keep' });
    // A permission on a topic's name is no child of a topic.
    expect(
      recordOnParentLoss({
        type: 'AWS::Lambda::Permission',
        properties: { FunctionName: 'x' },
        parentType: 'AWS::SNS::Topic',
        parentIds: ids('x'),
      }),
    ).toEqual({ kind: 'keep' });
  });

  describe('a policy that names several parents', () => {
    it.each([
      ['AWS::SQS::QueuePolicy', 'Queues', 'AWS::SQS::Queue'],
      ['AWS::SNS::TopicPolicy', 'Topics', 'AWS::SNS::Topic'],
      ['AWS::IAM::Policy', 'Roles', 'AWS::IAM::Role'],
      ['AWS::IAM::Policy', 'Users', 'AWS::IAM::User'],
      ['AWS::IAM::Policy', 'Groups', 'AWS::IAM::Group'],
    ])(
      '%s keeps its record minus the re-created parent in %s, so the next write puts it back there',
      (type, property, parentType) => {
        expect(
          recordOnParentLoss({
            type,
            properties: { PolicyDocument: {}, [property]: ['a', 'b'] },
            parentType,
            parentIds: ids('a'),
          }),
        ).toEqual({ kind: 'trim', properties: { PolicyDocument: {}, [property]: ['b'] } });
      },
    );

    it('an IAM policy whose roles were all re-created but which also names a user keeps its record', () => {
      expect(
        recordOnParentLoss({
          type: 'AWS::IAM::Policy',
          properties: { Roles: ['r'], Users: ['u'] },
          parentType: 'AWS::IAM::Role',
          parentIds: ids('r'),
        }),
      ).toEqual({ kind: 'trim', properties: { Roles: [], Users: ['u'] } });
    });

    it('one naming only re-created parents is dropped: AWS holds it on none', () => {
      expect(
        recordOnParentLoss({
          type: 'AWS::SQS::QueuePolicy',
          properties: { Queues: ['https://q/a'] },
          parentType: 'AWS::SQS::Queue',
          parentIds: ids('https://q/a'),
        }),
      ).toEqual({ kind: 'drop' });
    });
  });

  describe('what is attached to a re-created IAM principal: never dropped, kept minus the principal', () => {
    it.each([
      ['AWS::IAM::ManagedPolicy', 'Roles', 'AWS::IAM::Role'],
      ['AWS::IAM::ManagedPolicy', 'Users', 'AWS::IAM::User'],
      ['AWS::IAM::ManagedPolicy', 'Groups', 'AWS::IAM::Group'],
      ['AWS::IAM::InstanceProfile', 'Roles', 'AWS::IAM::Role'],
      ['AWS::IAM::User', 'Groups', 'AWS::IAM::Group'],
      ['AWS::IAM::UserToGroupAddition', 'Users', 'AWS::IAM::User'],
    ])('%s in %s, also when nothing is left', (type, property, parentType) => {
      expect(
        recordOnParentLoss({ type, properties: { [property]: ['p'] }, parentType, parentIds: ids('p') }),
      ).toEqual({ kind: 'trim', properties: { [property]: [] } });
    });

    it('a UserToGroupAddition on a re-created group keeps no members', () => {
      expect(
        recordOnParentLoss({
          type: 'AWS::IAM::UserToGroupAddition',
          properties: { GroupName: 'g', Users: ['u1', 'u2'] },
          parentType: 'AWS::IAM::Group',
          parentIds: ids('g'),
        }),
      ).toEqual({ kind: 'trim', properties: { GroupName: 'g', Users: [] } });
    });
  });
});

describe('a child whose restore was attempted and failed (spec 002)', () => {
  it.each([
    ['sdk', true, true, { kind: 'keep', flag: '--recreate-via-cc-api' }],
    ['sdk', true, false, { kind: 'keep', flag: '--recreate-via-cc-api' }],
    ['cc-api', true, true, { kind: 'keep', flag: '--recreate-via-sdk-provider' }],
    ['sdk', false, true, { kind: 'drop' }],
    ['cc-api', true, false, { kind: 'drop' }],
  ] as const)(
    'provisioned by %s, Cloud Control handles: %s, an SDK provider: %s → %o',
    (provisionedBy, cc, sdk, expected) => {
      expect(
        recordOnFailedRestore({ provisionedBy, cloudControlHandles: cc, sdkProviderHandles: sdk }),
      ).toEqual(expected);
    },
  );

  it('the warning names the flag when the record is kept, and says the write may be there when it is dropped', () => {
    expect(failedRestoreWarning('Perm', 'Fn', { kind: 'keep', flag: '--recreate-via-cc-api' })).toContain(
      'deploy with --recreate-via-cc-api Perm',
    );
    const dropped = failedRestoreWarning('Perm', 'Fn', { kind: 'drop' });
    expect(dropped).toContain('record is dropped');
    expect(dropped).toContain('may still be on Fn');
    expect(dropped).toContain('by hand');
  });
});
