import { describe, expect, it } from 'vitest';
import { samePolicy } from '../../src/providers/policy-compare/equivalent-policies.js';

const statement = {
  Effect: 'Allow',
  Principal: { AWS: 'arn:aws:iam::123456789012:root' },
  Action: 'sqs:SendMessage',
  Resource: '*',
};
const policy = (...statements: unknown[]) => ({ Version: '2012-10-17', Statement: statements });

const cases: Array<{ name: string; a: unknown; b: unknown; same: boolean }> = [
  { name: 'identical documents', a: policy(statement), b: policy(statement), same: true },
  {
    name: 'key order',
    a: policy(statement),
    b: {
      Statement: [Object.fromEntries(Object.entries(statement).reverse())],
      Version: '2012-10-17',
    },
    same: true,
  },
  {
    name: 'JSON text and its object',
    a: JSON.stringify(policy(statement), null, 2),
    b: policy(statement),
    same: true,
  },
  {
    name: 'a bare account id and its root ARN',
    a: policy({ ...statement, Principal: { AWS: '123456789012' } }),
    b: policy(statement),
    same: true,
  },
  {
    name: 'a root ARN in another partition',
    a: policy({ ...statement, Principal: { AWS: 'arn:aws-cn:iam::123456789012:root' } }),
    b: policy({ ...statement, Principal: { AWS: '123456789012' } }),
    same: true,
  },
  {
    name: 'a one-element list and its value',
    a: policy({ ...statement, Action: ['sqs:SendMessage'], Principal: { AWS: [statement.Principal.AWS] } }),
    b: policy(statement),
    same: true,
  },
  {
    name: 'a Statement object and a one-element list',
    a: { ...policy(), Statement: statement },
    b: policy(statement),
    same: true,
  },
  {
    name: 'a "*" principal and {"AWS": "*"}',
    a: policy({ ...statement, Principal: '*' }),
    b: policy({ ...statement, Principal: { AWS: '*' } }),
    same: true,
  },
  {
    name: 'a missing Version and the default 2008-10-17',
    a: { Statement: [statement] },
    b: { Version: '2008-10-17', Statement: [statement] },
    same: true,
  },
  {
    name: 'list order',
    a: policy({ ...statement, Action: ['sqs:SendMessage', 'sqs:ReceiveMessage'] }),
    b: policy({ ...statement, Action: ['sqs:ReceiveMessage', 'sqs:SendMessage'] }),
    same: true,
  },
  {
    name: 'a different action',
    a: policy(statement),
    b: policy({ ...statement, Action: 'sqs:DeleteMessage' }),
    same: false,
  },
  {
    name: 'a different account',
    a: policy({ ...statement, Principal: { AWS: '210987654321' } }),
    b: policy(statement),
    same: false,
  },
  {
    name: 'a "*" principal and a service principal',
    a: policy({ ...statement, Principal: '*' }),
    b: policy({ ...statement, Principal: { Service: 'sns.amazonaws.com' } }),
    same: false,
  },
  {
    name: 'a missing Version and 2012-10-17',
    a: { Statement: [statement] },
    b: policy(statement),
    same: false,
  },
  {
    name: 'a two-element list and one of its values',
    a: policy({ ...statement, Action: ['sqs:SendMessage', 'sqs:ReceiveMessage'] }),
    b: policy(statement),
    same: false,
  },
  {
    name: 'an extra statement',
    a: policy(statement, { ...statement, Effect: 'Deny' }),
    b: policy(statement),
    same: false,
  },
  { name: 'text that is not JSON', a: '{not json', b: '{not json', same: false },
];

describe('samePolicy', () => {
  it.each(cases)('$name: $same', ({ a, b, same }) => {
    expect(samePolicy(a, b)).toBe(same);
    expect(samePolicy(b, a)).toBe(same);
  });
});
