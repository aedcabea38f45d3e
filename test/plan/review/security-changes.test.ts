import { describe, expect, it } from 'vitest';
import { securityChanges, type StackValues } from '../../../src/plan/index.js';

const doc = (...statements: unknown[]) => ({ Version: '2012-10-17', Statement: statements });
const allow = (action: string, resource: string, principal?: unknown) => ({
  Effect: 'Allow',
  Action: action,
  Resource: resource,
  ...(principal !== undefined && { Principal: principal }),
});
const role = (policies: unknown[], managed: string[] = []) => ({
  AssumeRolePolicyDocument: doc({
    Effect: 'Allow',
    Action: 'sts:AssumeRole',
    Principal: { Service: 'lambda.amazonaws.com' },
  }),
  Policies: policies,
  ManagedPolicyArns: managed,
});
const inline = (...statements: unknown[]) => [{ PolicyName: 'p', PolicyDocument: doc(...statements) }];

interface Case {
  name: string;
  type: string;
  old: Record<string, unknown>;
  new: Record<string, unknown>;
  rows: string[][];
  broadened: boolean;
}

// Each policy-bearing type with a statement added; then a narrowed statement, a Deny, managed
// policies and security-group rules. Rows are the CDK CLI's table rows, header left out.
const CASES: Case[] = [
  {
    name: 'an inline policy of a role, widened',
    type: 'AWS::IAM::Role',
    old: role(inline(allow('s3:GetObject', 'arn:aws:s3:::b/*'))),
    new: role(inline(allow('s3:*', '*'))),
    rows: [
      ['+', '*', 'Allow', 's3:*', 'AWS:${R}', ''],
      ['-', 'arn:aws:s3:::b/*', 'Allow', 's3:GetObject', 'AWS:${R}', ''],
    ],
    broadened: true,
  },
  {
    name: 'an inline policy of a role, narrowed',
    type: 'AWS::IAM::Role',
    old: role(inline(allow('s3:*', '*'))),
    new: role(inline()),
    rows: [['-', '*', 'Allow', 's3:*', 'AWS:${R}', '']],
    broadened: false,
  },
  {
    name: 'an inline policy of a user',
    type: 'AWS::IAM::User',
    old: { Policies: [] },
    new: { Policies: inline(allow('sqs:*', '*')) },
    rows: [['+', '*', 'Allow', 'sqs:*', 'AWS:${R}', '']],
    broadened: true,
  },
  {
    name: 'an inline policy of a group',
    type: 'AWS::IAM::Group',
    old: { Policies: [] },
    new: { Policies: inline(allow('sns:*', '*')) },
    rows: [['+', '*', 'Allow', 'sns:*', 'AWS:${R}', '']],
    broadened: true,
  },
  {
    name: 'an AWS::IAM::Policy on a role',
    type: 'AWS::IAM::Policy',
    old: { PolicyName: 'p', Roles: ['reader'], PolicyDocument: doc() },
    new: { PolicyName: 'p', Roles: ['reader'], PolicyDocument: doc(allow('dynamodb:*', 'arn:t')) },
    rows: [['+', 'arn:t', 'Allow', 'dynamodb:*', 'AWS:reader', '']],
    broadened: true,
  },
  {
    name: 'a customer managed policy on a role',
    type: 'AWS::IAM::ManagedPolicy',
    old: { Roles: ['reader'], PolicyDocument: doc() },
    new: { Roles: ['reader'], PolicyDocument: doc(allow('kms:Decrypt', '*')) },
    rows: [['+', '*', 'Allow', 'kms:Decrypt', 'AWS:reader', '']],
    broadened: true,
  },
  {
    name: 'a bucket policy',
    type: 'AWS::S3::BucketPolicy',
    old: { Bucket: 'b', PolicyDocument: doc() },
    new: { Bucket: 'b', PolicyDocument: doc(allow('s3:GetObject', 'arn:aws:s3:::b/*', '*')) },
    rows: [['+', 'arn:aws:s3:::b/*', 'Allow', 's3:GetObject', '*', '']],
    broadened: true,
  },
  {
    name: 'a queue policy',
    type: 'AWS::SQS::QueuePolicy',
    old: { Queues: ['q'], PolicyDocument: doc() },
    new: {
      Queues: ['q'],
      PolicyDocument: doc(allow('sqs:SendMessage', 'arn:q', { Service: 'sns.amazonaws.com' })),
    },
    rows: [['+', 'arn:q', 'Allow', 'sqs:SendMessage', 'Service:sns.amazonaws.com', '']],
    broadened: true,
  },
  {
    name: 'a topic policy',
    type: 'AWS::SNS::TopicPolicy',
    old: { Topics: ['t'], PolicyDocument: doc() },
    new: { Topics: ['t'], PolicyDocument: doc(allow('sns:Publish', 'arn:t', '*')) },
    rows: [['+', 'arn:t', 'Allow', 'sns:Publish', '*', '']],
    broadened: true,
  },
  {
    name: 'a key policy',
    type: 'AWS::KMS::Key',
    old: { KeyPolicy: doc() },
    new: { KeyPolicy: doc(allow('kms:*', '*', { AWS: 'arn:aws:iam::1:root' })) },
    rows: [['+', '${R.Arn}', 'Allow', 'kms:*', 'AWS:arn:aws:iam::1:root', '']],
    broadened: true,
  },
  {
    name: 'a Lambda permission opened to everyone',
    type: 'AWS::Lambda::Permission',
    old: { FunctionName: 'f', Action: 'lambda:InvokeFunction', Principal: 's3.amazonaws.com' },
    new: { FunctionName: 'f', Action: 'lambda:InvokeFunction', Principal: '*' },
    rows: [
      ['+', 'f', 'Allow', 'lambda:InvokeFunction', '*', ''],
      ['-', 'f', 'Allow', 'lambda:InvokeFunction', 'Service:s3.amazonaws.com', ''],
    ],
    broadened: true,
  },
  {
    name: "a secret's resource policy",
    type: 'AWS::SecretsManager::ResourcePolicy',
    old: { SecretId: 's', ResourcePolicy: doc() },
    new: { SecretId: 's', ResourcePolicy: doc(allow('secretsmanager:GetSecretValue', '*', { AWS: '*' })) },
    rows: [['+', 's', 'Allow', 'secretsmanager:GetSecretValue', 'AWS:*', '']],
    broadened: true,
  },
  {
    name: 'a Deny statement removed',
    type: 'AWS::S3::BucketPolicy',
    old: {
      Bucket: 'b',
      PolicyDocument: doc({ Effect: 'Deny', Action: 's3:*', Resource: '*', Principal: '*' }),
    },
    new: { Bucket: 'b', PolicyDocument: doc() },
    // The library names a bucket policy's '*' resource by the bucket.
    rows: [['-', 'b', 'Deny', 's3:*', '*', '']],
    broadened: true,
  },
  {
    name: 'a managed policy attached to a role',
    type: 'AWS::IAM::Role',
    old: role([]),
    new: role([], ['arn:aws:iam::aws:policy/ReadOnlyAccess']),
    rows: [['+', '${R}', 'arn:aws:iam::aws:policy/ReadOnlyAccess']],
    broadened: true,
  },
  {
    name: 'a managed policy detached from a role',
    type: 'AWS::IAM::Role',
    old: role([], ['arn:aws:iam::aws:policy/ReadOnlyAccess']),
    new: role([]),
    rows: [['-', '${R}', 'arn:aws:iam::aws:policy/ReadOnlyAccess']],
    broadened: false,
  },
  {
    name: "a security group's new ingress rule",
    type: 'AWS::EC2::SecurityGroup',
    old: { GroupDescription: 'g', SecurityGroupIngress: [] },
    new: {
      GroupDescription: 'g',
      SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, CidrIp: '0.0.0.0/0' }],
    },
    rows: [['+', '${R.GroupId}', 'In', 'TCP 22', 'Everyone (IPv4)']],
    broadened: true,
  },
  {
    name: 'a standalone egress rule removed',
    type: 'AWS::EC2::SecurityGroupEgress',
    old: { GroupId: 'sg-1', IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '10.0.0.0/8' },
    new: {
      GroupId: 'sg-1',
      IpProtocol: 'tcp',
      FromPort: 443,
      ToPort: 443,
      CidrIp: '10.0.0.0/8',
      Description: 'd',
    },
    rows: [],
    broadened: false,
  },
];

describe('securityChanges', () => {
  it.each(CASES)('$name', async ({ type, old, new: desired, rows, broadened }) => {
    const changes = await securityChanges({ R: { type, old, new: desired } });
    expect([...changes.iamStatements, ...changes.managedPolicies, ...changes.securityGroups]).toEqual(rows);
    expect(changes.broadened).toBe(broadened);
  });

  it('a resource never deployed counts as added; a deleted one as removed', async () => {
    const values: StackValues = {
      New: {
        type: 'AWS::SQS::QueuePolicy',
        new: { Queues: ['q'], PolicyDocument: doc(allow('sqs:*', 'arn:q', '*')) },
      },
      Gone: {
        type: 'AWS::SNS::TopicPolicy',
        old: { Topics: ['t'], PolicyDocument: doc(allow('sns:*', 'arn:t', '*')) },
      },
    };
    const changes = await securityChanges(values);
    expect(changes.iamStatements).toEqual([
      ['+', 'arn:q', 'Allow', 'sqs:*', '*', ''],
      ['-', 'arn:t', 'Allow', 'sns:*', '*', ''],
    ]);
    expect(changes.broadened).toBe(true);
  });

  it('nothing changed: no rows, no library loaded', async () => {
    expect(await securityChanges({})).toEqual({
      iamStatements: [],
      managedPolicies: [],
      securityGroups: [],
      broadened: false,
    });
  });
});
