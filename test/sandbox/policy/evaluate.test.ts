import { describe, expect, it } from 'vitest';
import {
  evaluateAccess,
  evaluatePolicy,
  type Decision,
  type PolicyRequest,
} from '../../../src/sandbox/policy/evaluate.js';

const QUEUE = 'arn:aws:sqs:us-east-1:111111111111:jobs';
const TOPIC = 'arn:aws:sns:us-east-1:111111111111:orders';
const ROLE = 'arn:aws:iam::111111111111:role/scheduler';

const fromSns: PolicyRequest = {
  principal: { service: 'sns.amazonaws.com' },
  action: 'sqs:SendMessage',
  resource: QUEUE,
  context: { 'aws:SourceArn': TOPIC, 'aws:SourceAccount': '111111111111' },
};
const fromRole: PolicyRequest = {
  principal: { arn: ROLE, account: '111111111111' },
  action: 'lambda:InvokeFunction',
  resource: 'arn:aws:lambda:us-east-1:111111111111:function:nightly',
  context: {},
};

const allow = (statement: Record<string, unknown>) => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', ...statement }],
});
const sendFromSns = {
  Principal: { Service: 'sns.amazonaws.com' },
  Action: 'sqs:SendMessage',
  Resource: QUEUE,
};

describe('evaluatePolicy: one case per rule', () => {
  const cases: Array<[string, unknown, PolicyRequest, Decision]> = [
    ['a matching service principal allows', allow(sendFromSns), fromSns, 'allow'],
    [
      'another service principal does not',
      allow({ ...sendFromSns, Principal: { Service: 's3.amazonaws.com' } }),
      fromSns,
      'implicit-deny',
    ],
    ['Principal "*" names everyone', allow({ ...sendFromSns, Principal: '*' }), fromSns, 'allow'],
    [
      'Principal {AWS: "*"} names everyone',
      allow({ ...sendFromSns, Principal: { AWS: '*' } }),
      fromSns,
      'allow',
    ],
    [
      "an account's root ARN names its roles",
      allow({ Principal: { AWS: 'arn:aws:iam::111111111111:root' }, Action: '*', Resource: '*' }),
      fromRole,
      'allow',
    ],
    [
      'a bare account id names its roles',
      allow({ Principal: { AWS: '111111111111' }, Action: '*', Resource: '*' }),
      fromRole,
      'allow',
    ],
    [
      'another account does not',
      allow({ Principal: { AWS: '222222222222' }, Action: '*', Resource: '*' }),
      fromRole,
      'implicit-deny',
    ],
    [
      'NotPrincipal excludes the named',
      allow({ NotPrincipal: { Service: 'sns.amazonaws.com' }, Action: '*', Resource: '*' }),
      fromSns,
      'implicit-deny',
    ],
    ['actions match ignoring case', allow({ ...sendFromSns, Action: 'SQS:sendmessage' }), fromSns, 'allow'],
    ['action wildcards match', allow({ ...sendFromSns, Action: ['sqs:Send*'] }), fromSns, 'allow'],
    [
      'another action does not',
      allow({ ...sendFromSns, Action: 'sqs:ReceiveMessage' }),
      fromSns,
      'implicit-deny',
    ],
    [
      'NotAction excludes the named',
      allow({ ...sendFromSns, Action: undefined, NotAction: 'sqs:Send*' }),
      fromSns,
      'implicit-deny',
    ],
    [
      'resource wildcards match',
      allow({ ...sendFromSns, Resource: 'arn:aws:sqs:*:111111111111:*' }),
      fromSns,
      'allow',
    ],
    [
      'another resource does not',
      allow({ ...sendFromSns, Resource: `${QUEUE}-dlq` }),
      fromSns,
      'implicit-deny',
    ],
    [
      'NotResource excludes the named',
      allow({ ...sendFromSns, Resource: undefined, NotResource: QUEUE }),
      fromSns,
      'implicit-deny',
    ],
    [
      'an identity statement (no Principal) applies to its holder',
      allow({ Action: 'lambda:InvokeFunction', Resource: 'arn:aws:lambda:*:*:function:nightly*' }),
      fromRole,
      'allow',
    ],
    [
      'ArnLike on aws:SourceArn holds for the topic',
      allow({ ...sendFromSns, Condition: { ArnLike: { 'aws:SourceArn': 'arn:aws:sns:*:*:orders' } } }),
      fromSns,
      'allow',
    ],
    [
      'ArnEquals on aws:SourceArn fails for another topic',
      allow({ ...sendFromSns, Condition: { ArnEquals: { 'aws:SourceArn': `${TOPIC}-old` } } }),
      fromSns,
      'implicit-deny',
    ],
    [
      'condition keys match ignoring case; any listed value matches',
      allow({
        ...sendFromSns,
        Condition: { StringEquals: { 'AWS:SOURCEACCOUNT': ['222222222222', '111111111111'] } },
      }),
      fromSns,
      'allow',
    ],
    [
      'every key and operator must hold',
      allow({
        ...sendFromSns,
        Condition: {
          StringEquals: { 'aws:SourceAccount': '111111111111' },
          ArnLike: { 'aws:SourceArn': 'arn:aws:s3:::*' },
        },
      }),
      fromSns,
      'implicit-deny',
    ],
    [
      'a positive operator on an absent key fails',
      allow({ ...sendFromSns, Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-1' } } }),
      fromSns,
      'implicit-deny',
    ],
    [
      '…IfExists on an absent key holds',
      allow({ ...sendFromSns, Condition: { StringEqualsIfExists: { 'aws:PrincipalOrgID': 'o-1' } } }),
      fromSns,
      'allow',
    ],
    [
      'a negated operator on an absent key holds',
      allow({ ...sendFromSns, Condition: { StringNotEquals: { 'aws:PrincipalOrgID': 'o-1' } } }),
      fromSns,
      'allow',
    ],
    [
      'a negated operator fails on a match',
      allow({ ...sendFromSns, Condition: { ArnNotLike: { 'aws:SourceArn': 'arn:aws:sns:*' } } }),
      fromSns,
      'implicit-deny',
    ],
    [
      'Null true holds for an absent key',
      allow({ ...sendFromSns, Condition: { Null: { 'aws:PrincipalOrgID': 'true' } } }),
      fromSns,
      'allow',
    ],
    [
      'an explicit Deny wins over an Allow',
      {
        Statement: [
          { Effect: 'Allow', ...sendFromSns },
          { Effect: 'Deny', Principal: '*', Action: 'sqs:*', Resource: '*' },
        ],
      },
      fromSns,
      'deny',
    ],
    ['a policy text is read as JSON', JSON.stringify(allow(sendFromSns)), fromSns, 'allow'],
    ['a text that is not JSON allows nothing', '{not json', fromSns, 'implicit-deny'],
    ['no statement allows nothing', { Statement: [] }, fromSns, 'implicit-deny'],
    [
      'an unknown operator never holds',
      allow({ ...sendFromSns, Condition: { StringSortOf: { 'aws:SourceArn': TOPIC } } }),
      fromSns,
      'implicit-deny',
    ],
  ];
  it.each(cases)('%s', (_name, policy, request, decision) => {
    expect(evaluatePolicy(policy, request)).toBe(decision);
  });
});

describe('evaluateAccess', () => {
  const identity = [allow({ Action: 'lambda:InvokeFunction', Resource: '*' })];
  it.each<[string, Parameters<typeof evaluateAccess>[1], Decision]>([
    ['within an account, an identity Allow is enough', { identity, sameAccount: true }, 'allow'],
    ['across accounts, the resource must allow too', { identity, sameAccount: false }, 'implicit-deny'],
    [
      'across accounts, both allowing allows',
      {
        identity,
        resource: allow({ Principal: { AWS: ROLE }, Action: '*', Resource: '*' }),
        sameAccount: false,
      },
      'allow',
    ],
    [
      "a resource policy's Deny denies",
      {
        identity,
        resource: { Statement: [{ Effect: 'Deny', Principal: '*', Action: '*', Resource: '*' }] },
        sameAccount: true,
      },
      'deny',
    ],
    ['nothing allowing is an implicit deny', { identity: [], sameAccount: true }, 'implicit-deny'],
  ])('%s', (_name, policies, decision) => {
    expect(evaluateAccess(fromRole, policies)).toBe(decision);
  });

  it.each<[string, unknown, Decision]>([
    ["a service principal's resource policy alone allows", allow(sendFromSns), 'allow'],
    ['a service principal with no resource policy is refused', undefined, 'implicit-deny'],
  ])('%s', (_name, resource, decision) => {
    expect(evaluateAccess(fromSns, { resource, sameAccount: false })).toBe(decision);
  });
});
