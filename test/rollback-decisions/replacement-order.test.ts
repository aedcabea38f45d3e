import { describe, expect } from 'vitest';
import { ruleTable } from './rule-table.js';
import {
  isReplacement,
  reversalOrder,
  type ReplacementFacts,
  type ReversalOrder,
} from '../../src/rollback-decisions/replacement-order.js';

type OrderInput = Parameters<typeof reversalOrder>[0];
const input = (overrides: Partial<OrderInput>): OrderInput => ({
  journalHasVerdicts: true,
  keepNew: false,
  oldPropertiesNameReplacedOrDeleted: [],
  ...overrides,
});

// Spec 000, "Reversing a replacement".
describe('reversalOrder', () => {
  ruleTable<{ rule: string; input: OrderInput; order: ReversalOrder }>(
    [
      {
        rule: 'The default order is create-first',
        input: input({ verdict: { replacement: true, order: 'create-first' } }),
        order: { order: 'create-first', mayFreeName: true, warnings: [] },
      },
      {
        rule: 'A replacement that deleted the old resource BEFORE creating the new one ... is reversed in that order too',
        input: input({ verdict: { replacement: true, order: 'delete-first', oldDeleted: true } }),
        order: { order: 'delete-first', mayFreeName: true, warnings: [] },
      },
      {
        rule: 'A journal written by an older cdkd ... use[s] the create-first order',
        input: input({ journalHasVerdicts: false }),
        order: { order: 'create-first', mayFreeName: true, warnings: [] },
      },
      {
        rule: 'a new resource kept by UpdateReplacePolicy: Retain, use[s] the create-first order',
        input: input({ keepNew: true, verdict: { replacement: true, order: 'delete-first' } }),
        order: { order: 'create-first', mayFreeName: false, warnings: [] },
      },
      {
        rule: 'So does a resource whose old properties name another resource the same deploy replaced or deleted ... The rollback says so in a warning and does not delete the new resource to free a name either',
        input: input({
          verdict: { replacement: true, order: 'delete-first' },
          oldPropertiesNameReplacedOrDeleted: ['TargetGroup'],
        }),
        order: {
          order: 'create-first',
          mayFreeName: false,
          warnings: [expect.stringContaining('TargetGroup')],
        },
      },
    ],
    ({ input: given, order }) => {
      expect(reversalOrder(given)).toEqual(order);
    },
  );
});

const update = (overrides: Partial<ReplacementFacts>): ReplacementFacts => ({
  action: 'update',
  type: 'AWS::SQS::QueuePolicy',
  physicalId: 'https://sqs/b',
  previousPhysicalId: 'https://sqs/a',
  ...overrides,
});

// Spec 000, "What counts as a replacement is what the provider reported".
describe('isReplacement', () => {
  ruleTable<{ rule: string; op: ReplacementFacts; replacement: boolean }>(
    [
      {
        rule: 'What counts as a replacement is what the provider reported',
        op: update({
          type: 'AWS::SQS::Queue',
          physicalId: 'q',
          previousPhysicalId: 'q',
          verdict: { replacement: true },
        }),
        replacement: true,
      },
      {
        rule: 'An update applied in place is reverted in place even when it changed the physical id, as an SQS QueuePolicy update does when its first queue changes',
        op: update({ verdict: { replacement: false } }),
        replacement: false,
      },
      {
        rule: 'and an SNS TopicPolicy update does when its topics change',
        op: update({ type: 'AWS::SNS::TopicPolicy', verdict: { replacement: false } }),
        replacement: false,
      },
      {
        rule: "A journal written by an older cdkd does not record the provider's answer, so there a changed physical id still reads as a replacement",
        op: update({}),
        replacement: true,
      },
      {
        rule: 'A journal written by an older cdkd: an unchanged physical id is an update in place',
        op: update({ physicalId: 'https://sqs/a' }),
        replacement: false,
      },
      {
        rule: 'A journal written by an older cdkd: an RDS identifier that differs only in case names the same resource',
        op: update({ type: 'AWS::RDS::DBInstance', physicalId: 'mydb', previousPhysicalId: 'MyDb' }),
        replacement: false,
      },
      {
        rule: 'A Type change ... stay[s a] replacement whatever the provider answered',
        op: update({
          type: 'AWS::SQS::Queue',
          previousType: 'AWS::SNS::Topic',
          verdict: { replacement: false },
        }),
        replacement: true,
      },
      {
        rule: 'and a Glue table whose recorded database differs under an equal id, stay[s a] replacement whatever the provider answered',
        op: update({
          type: 'AWS::Glue::Table',
          physicalId: 'sales',
          previousPhysicalId: 'sales',
          before: { properties: { DatabaseName: 'raw' } },
          attempted: { DatabaseName: 'curated' },
          verdict: { replacement: false },
        }),
        replacement: true,
      },
      { rule: 'a CREATE is never a replacement', op: update({ action: 'create' }), replacement: false },
      { rule: 'a DELETE is never a replacement', op: update({ action: 'delete' }), replacement: false },
    ],
    ({ op, replacement }) => {
      expect(isReplacement(op)).toBe(replacement);
    },
  );
});
