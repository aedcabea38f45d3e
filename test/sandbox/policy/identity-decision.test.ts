import { describe, expect, it } from 'vitest';
import type { PolicyRequest } from '../../../src/sandbox/policy/evaluate.js';
import {
  identityRefusal,
  refusalMessage,
  type IdentityRefusal,
  type PrincipalPolicies,
} from '../../../src/sandbox/policy/identity-decision.js';

const ACCOUNT = '222222222222';
const SESSION = `arn:aws:sts::${ACCOUNT}:assumed-role/deployer/ci`;
const QUEUE = `arn:aws:sqs:us-east-1:${ACCOUNT}:jobs`;

const request = (
  action: string,
  resource: string | undefined,
  context: Record<string, string> = {},
): PolicyRequest => ({
  principal: { arn: SESSION, account: ACCOUNT },
  action,
  resource,
  context,
});
const policy = (...statements: Array<Record<string, unknown>>) => ({
  Version: '2012-10-17',
  Statement: statements,
});
const allow = (statement: Record<string, unknown>) => ({ Effect: 'Allow', Resource: '*', ...statement });
const deny = (statement: Record<string, unknown>) => ({ Effect: 'Deny', Resource: '*', ...statement });
const ADMIN = policy(allow({ Action: '*' }));

describe('identityRefusal: one case per rule', () => {
  const cases: Array<[string, PrincipalPolicies, PolicyRequest, IdentityRefusal | undefined]> = [
    [
      'an Allow of the action allows',
      { identity: [policy(allow({ Action: 'sqs:CreateQueue' }))] },
      request('sqs:CreateQueue', QUEUE),
      undefined,
    ],
    [
      'no policy at all: nothing allows',
      { identity: [] },
      request('sqs:CreateQueue', QUEUE),
      'no-identity-allow',
    ],
    [
      'another action is not allowed',
      { identity: [policy(allow({ Action: 'sqs:CreateQueue' }))] },
      request('sns:CreateTopic', undefined),
      'no-identity-allow',
    ],
    [
      'actions match ignoring case',
      { identity: [policy(allow({ Action: 'SQS:createqueue' }))] },
      request('sqs:CreateQueue', QUEUE),
      undefined,
    ],
    [
      'an action wildcard allows',
      { identity: [policy(allow({ Action: 'sqs:Create*' }))] },
      request('sqs:CreateQueue', QUEUE),
      undefined,
    ],
    [
      'an explicit Deny beats an Allow in another policy',
      { identity: [ADMIN, policy(deny({ Action: 'sqs:CreateQueue' }))] },
      request('sqs:CreateQueue', QUEUE),
      'identity-deny',
    ],
    [
      'an explicit Deny beats an Allow in the same policy',
      { identity: [policy(allow({ Action: '*' }), deny({ Action: 'sqs:*' }))] },
      request('sqs:CreateQueue', QUEUE),
      'identity-deny',
    ],
    [
      'NotAction allows every other action',
      { identity: [policy(allow({ NotAction: 'sqs:CreateQueue' }))] },
      request('sns:CreateTopic', undefined),
      undefined,
    ],
    [
      'NotAction does not allow the named action',
      { identity: [policy(allow({ NotAction: 'sqs:CreateQueue' }))] },
      request('sqs:CreateQueue', QUEUE),
      'no-identity-allow',
    ],
    [
      'a resource wildcard allows a matching ARN',
      { identity: [policy(allow({ Action: 'sqs:*', Resource: `arn:aws:sqs:*:${ACCOUNT}:jo*` }))] },
      request('sqs:CreateQueue', QUEUE),
      undefined,
    ],
    [
      'a resource wildcard does not allow another ARN',
      { identity: [policy(allow({ Action: 'sqs:*', Resource: `arn:aws:sqs:*:${ACCOUNT}:other-*` }))] },
      request('sqs:CreateQueue', QUEUE),
      'no-identity-allow',
    ],
    [
      'resources match case-sensitively',
      { identity: [policy(allow({ Action: 'sqs:*', Resource: QUEUE.toUpperCase() }))] },
      request('sqs:CreateQueue', QUEUE),
      'no-identity-allow',
    ],
    [
      'NotResource allows other resources',
      {
        identity: [
          policy(allow({ Action: 'sqs:*', Resource: undefined, NotResource: `arn:aws:sqs:*:*:secret` })),
        ],
      },
      request('sqs:CreateQueue', QUEUE),
      undefined,
    ],
    [
      'NotResource does not allow the named resource',
      { identity: [policy(allow({ Action: 'sqs:*', Resource: undefined, NotResource: QUEUE }))] },
      request('sqs:CreateQueue', QUEUE),
      'no-identity-allow',
    ],
    [
      'an underived resource: a statement for * applies',
      { identity: [policy(allow({ Action: 'ec2:*' }))] },
      request('ec2:CreateVpc', undefined),
      undefined,
    ],
    [
      'an underived resource: a statement for an ARN pattern does not',
      { identity: [policy(allow({ Action: 'ec2:*', Resource: 'arn:aws:ec2:*:*:vpc/*' }))] },
      request('ec2:CreateVpc', undefined),
      'no-identity-allow',
    ],
    [
      'an underived resource: a NotResource statement does not apply',
      {
        identity: [
          policy(allow({ Action: 'ec2:*', Resource: undefined, NotResource: 'arn:aws:ec2:*:*:vpc/*' })),
        ],
      },
      request('ec2:CreateVpc', undefined),
      'no-identity-allow',
    ],
    [
      'a condition that holds allows',
      {
        identity: [
          policy(
            allow({ Action: 'sqs:*', Condition: { StringEquals: { 'aws:RequestedRegion': 'us-east-1' } } }),
          ),
        ],
      },
      request('sqs:CreateQueue', QUEUE, { 'aws:RequestedRegion': 'us-east-1' }),
      undefined,
    ],
    [
      'a condition that fails does not',
      {
        identity: [
          policy(
            allow({ Action: 'sqs:*', Condition: { StringEquals: { 'aws:RequestedRegion': 'eu-west-1' } } }),
          ),
        ],
      },
      request('sqs:CreateQueue', QUEUE, { 'aws:RequestedRegion': 'us-east-1' }),
      'no-identity-allow',
    ],
    [
      'a boundary allowing the action lets the identity allow stand',
      { identity: [ADMIN], boundary: policy(allow({ Action: 'sqs:*' })) },
      request('sqs:CreateQueue', QUEUE),
      undefined,
    ],
    [
      'a boundary not allowing the action narrows AdministratorAccess',
      { identity: [ADMIN], boundary: policy(allow({ Action: 'sqs:*' })) },
      request('sns:CreateTopic', undefined),
      'no-boundary-allow',
    ],
    [
      'a boundary never grants what no identity policy allows',
      { identity: [], boundary: ADMIN },
      request('sqs:CreateQueue', QUEUE),
      'no-identity-allow',
    ],
    [
      'an explicit Deny in the boundary refuses',
      { identity: [ADMIN], boundary: policy(allow({ Action: '*' }), deny({ Action: 'sqs:CreateQueue' })) },
      request('sqs:CreateQueue', QUEUE),
      'boundary-deny',
    ],
    [
      'an identity Deny is named before a boundary Deny',
      { identity: [policy(deny({ Action: 'sqs:*' }))], boundary: policy(deny({ Action: 'sqs:*' })) },
      request('sqs:CreateQueue', QUEUE),
      'identity-deny',
    ],
  ];
  it.each(cases)('%s', (_name, policies, asked, expected) => {
    expect(identityRefusal(asked, policies)).toBe(expected);
  });
});

describe("refusalMessage: IAM's wording per refusal", () => {
  const cases: Array<[IdentityRefusal, string | undefined, string]> = [
    [
      'no-identity-allow',
      QUEUE,
      `User: ${SESSION} is not authorized to perform: sqs:CreateQueue on resource: ${QUEUE} because no identity-based policy allows the sqs:CreateQueue action`,
    ],
    [
      'identity-deny',
      QUEUE,
      `User: ${SESSION} is not authorized to perform: sqs:CreateQueue on resource: ${QUEUE} with an explicit deny in an identity-based policy`,
    ],
    [
      'no-boundary-allow',
      QUEUE,
      `User: ${SESSION} is not authorized to perform: sqs:CreateQueue on resource: ${QUEUE} because no permissions boundary allows the sqs:CreateQueue action`,
    ],
    [
      'boundary-deny',
      QUEUE,
      `User: ${SESSION} is not authorized to perform: sqs:CreateQueue on resource: ${QUEUE} with an explicit deny in a permissions boundary`,
    ],
    [
      'no-identity-allow',
      undefined,
      `User: ${SESSION} is not authorized to perform: sqs:CreateQueue because no identity-based policy allows the sqs:CreateQueue action`,
    ],
  ];
  it.each(cases)('%s (resource %s)', (refusal, resource, expected) => {
    expect(refusalMessage(SESSION, 'sqs:CreateQueue', resource, refusal)).toBe(expected);
  });
});
