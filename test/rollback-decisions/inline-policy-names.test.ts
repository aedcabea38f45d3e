import { describe, expect } from 'vitest';
import { ruleTable } from './rule-table.js';
import {
  decidePutBack,
  holdersOf,
  removedInlinePolicies,
  withoutName,
  type InlinePolicyHolder,
  type InlinePolicyName,
  type PutBackDecision,
} from '../../src/rollback-decisions/inline-policy-names.js';
import type { RollbackStep } from '../../src/rollback-decisions/steps.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';

const record = (type: string, physicalId: string, properties: Record<string, unknown>): ResourceRecord => ({
  type,
  physicalId,
  properties,
  attributes: {},
  provisionedBy: 'sdk',
  dependencies: [],
});
const doc = (action: string) => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }],
});
const policy = (name: string, roles: string[], action = 's3:GetObject') =>
  record('AWS::IAM::Policy', `id-${name}`, { PolicyName: name, PolicyDocument: doc(action), Roles: roles });
const roleWith = (roleName: string, policies: Array<[string, string]>) =>
  record('AWS::IAM::Role', roleName, {
    AssumeRolePolicyDocument: {},
    Policies: policies.map(([PolicyName, action]) => ({ PolicyName, PolicyDocument: doc(action) })),
  });
const onRole = (role: string, policyName: string): InlinePolicyName => ({
  principal: { kind: 'Role', name: role },
  policyName,
});

describe('removedInlinePolicies: the names a rollback step takes off a principal', () => {
  ruleTable<{ rule: string; step: RollbackStep; removed: InlinePolicyName[] }>(
    [
      {
        rule: 'deleting a rolled-back AWS::IAM::Policy removes its name from each of its roles',
        step: { kind: 'delete', logicalId: 'B', record: policy('shared', ['r1', 'r2']), retain: false },
        removed: [onRole('r1', 'shared'), onRole('r2', 'shared')],
      },
      {
        rule: 'a policy kept by DeletionPolicy Retain removes nothing',
        step: { kind: 'delete', logicalId: 'B', record: policy('shared', ['r1']), retain: true },
        removed: [],
      },
      {
        rule: 'reverting a rename removes the name the failed deploy gave it',
        step: {
          kind: 'revert',
          logicalId: 'A',
          before: policy('shared', ['r1']),
          current: policy('renamed', ['r1']),
        },
        removed: [onRole('r1', 'renamed')],
      },
      {
        rule: 'reverting a policy moved to another role removes it from that role only',
        step: {
          kind: 'revert',
          logicalId: 'A',
          before: policy('p', ['r1']),
          current: policy('p', ['r1', 'r2']),
        },
        removed: [onRole('r2', 'p')],
      },
      {
        rule: 'reverting a role whose own Policies took a name removes that name from the role',
        step: {
          kind: 'revert',
          logicalId: 'Role',
          before: roleWith('r1', [['own', 'a']]),
          current: roleWith('r1', [
            ['own', 'a'],
            ['shared', 'b'],
          ]),
        },
        removed: [onRole('r1', 'shared')],
      },
      {
        rule: 'deleting a role removes nothing from a principal that outlives it',
        step: { kind: 'delete', logicalId: 'Role', record: roleWith('r1', [['own', 'a']]), retain: false },
        removed: [],
      },
    ],
    ({ step, removed }) => expect(removedInlinePolicies(step)).toEqual(removed),
  );
});

describe('holdersOf: the state records holding a name on a principal', () => {
  ruleTable<{ rule: string; resources: Record<string, ResourceRecord>; holders: string[] }>(
    [
      {
        rule: 'an AWS::IAM::Policy naming the role under that name',
        resources: { A: policy('shared', ['r1']) },
        holders: ['A'],
      },
      {
        rule: 'a policy under another name does not hold it',
        resources: { A: policy('other', ['r1']) },
        holders: [],
      },
      {
        rule: 'the role’s own Policies, with the role’s name matched regardless of case',
        resources: { Role: roleWith('R1', [['shared', 'x']]) },
        holders: ['Role'],
      },
      {
        rule: 'another role’s Policies do not hold it',
        resources: { Role: roleWith('r2', [['shared', 'x']]) },
        holders: [],
      },
    ],
    ({ resources, holders }) =>
      expect(holdersOf(onRole('r1', 'shared'), resources).map((holder) => holder.logicalId)).toEqual(holders),
  );
});

describe('decidePutBack (spec 000, "IAM inline policy names moved between resources")', () => {
  const holder = (logicalId: string, document: unknown): InlinePolicyHolder => ({
    logicalId,
    record: policy('shared', ['r1']),
    document,
  });
  const name = onRole('r1', 'shared');
  ruleTable<{
    rule: string;
    holders: InlinePolicyHolder[];
    unfinished?: string[];
    name?: InlinePolicyName;
    decision: PutBackDecision;
  }>(
    [
      { rule: 'no record holds the name: nothing to put back', holders: [], decision: { kind: 'none' } },
      {
        rule: 'a record still holds the name: its document in cdkd state is put back',
        holders: [holder('A', doc('a'))],
        decision: { kind: 'put-back', holder: holder('A', doc('a')) },
      },
      {
        rule: 'records holding the name agree on its document: put back',
        holders: [
          holder('A', doc('a')),
          holder('Role', { Statement: doc('a').Statement, Version: '2012-10-17' }),
        ],
        decision: { kind: 'put-back', holder: holder('A', doc('a')) },
      },
      {
        rule: 'the records holding the name disagree on its document: nothing put back, warned',
        holders: [holder('A', doc('a')), holder('Role', doc('b'))],
        decision: { kind: 'warn', reason: expect.stringContaining('record different documents') },
      },
      {
        rule: 'the document is redacted: nothing put back, warned',
        holders: [holder('A', { Statement: [{ Resource: 'arn:***' }] })],
        decision: { kind: 'warn', reason: expect.stringContaining('redacted') },
      },
      {
        rule: 'the name is redacted: nothing put back, warned',
        holders: [holder('A', doc('a'))],
        name: onRole('r1', '***'),
        decision: { kind: 'warn', reason: expect.stringContaining('redacted') },
      },
      {
        rule: 'that record’s own rollback has not completed (failed, or interrupted first): nothing put back, warned',
        holders: [holder('A', doc('a'))],
        unfinished: ['A'],
        decision: { kind: 'warn', reason: expect.stringContaining('rollback of A did not complete') },
      },
    ],
    ({ holders, unfinished, name: asked, decision }) =>
      expect(decidePutBack(asked ?? name, holders, new Set(unfinished ?? []))).toEqual(decision),
  );
});

describe('withoutName: what the put-back updates from', () => {
  ruleTable<{ rule: string; holder: InlinePolicyHolder; previous: Record<string, unknown> }>(
    [
      {
        rule: 'a policy: its properties without the principal that lost the name',
        holder: { logicalId: 'A', record: policy('shared', ['r1', 'r2']), document: doc('s3:GetObject') },
        previous: { ...policy('shared', ['r2']).properties },
      },
      {
        rule: 'a role: its Policies without the lost one',
        holder: {
          logicalId: 'Role',
          record: roleWith('r1', [
            ['own', 'a'],
            ['shared', 'b'],
          ]),
          document: doc('b'),
        },
        previous: { ...roleWith('r1', [['own', 'a']]).properties },
      },
    ],
    ({ holder, previous }) => expect(withoutName(holder, onRole('r1', 'shared'))).toEqual(previous),
  );
});
