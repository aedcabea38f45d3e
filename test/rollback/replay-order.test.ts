import { describe, expect } from 'vitest';
import type { PlannedStep } from '../../src/rollback/plan-rollback.js';
import { replayDependencies } from '../../src/rollback/replay-order.js';
import type { JournalOperation } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { ruleTable } from '../rollback-decisions/rule-table.js';

const record = (
  type: string,
  properties: Record<string, unknown>,
  dependencies: string[] = [],
): ResourceRecord => ({
  type,
  physicalId: `id-${type}`,
  properties,
  attributes: {},
  provisionedBy: 'sdk',
  dependencies,
});

/** A completed create of `logicalId`, rolled back by a delete. */
function created(
  logicalId: string,
  type: string,
  properties: Record<string, unknown> = {},
  dependencies: string[] = [],
): PlannedStep {
  const after = record(type, properties, dependencies);
  const op = { seq: 0, logicalId, type, action: 'create', status: 'completed', after } as JournalOperation;
  return { op, step: { kind: 'delete', logicalId, record: after, retain: false } };
}

function made(logicalId: string, type: string): PlannedStep {
  const op = {
    seq: 0,
    logicalId,
    type,
    action: 'create',
    status: 'failed',
    made: { physicalId: 'x', provisionedBy: 'sdk', properties: {} },
  } as JournalOperation;
  return {
    op,
    step: {
      kind: 'delete-made',
      logicalId,
      type,
      physicalId: 'x',
      provisionedBy: 'sdk',
      properties: {},
      retain: false,
      needsIdentityProof: false,
    },
  };
}

/** The same operation, planned as a step that makes no AWS call. */
function journalOnly(entry: PlannedStep, kind: 'leave' | 'discard'): PlannedStep {
  const { logicalId } = entry.op;
  return {
    op: entry.op,
    step: kind === 'leave' ? { kind, logicalId, command: 'cdkd rollback' } : { kind, logicalId, reason: 'r' },
  };
}

describe('replayDependencies: which earlier steps of the plan a step waits for', () => {
  ruleTable<{ rule: string; plan: PlannedStep[]; waits: number[][] }>(
    [
      {
        rule: 'unrelated resources of different types replay at once',
        plan: [created('Topic', 'AWS::SNS::Topic'), created('Queue', 'AWS::SQS::Queue')],
        waits: [[], []],
      },
      {
        rule: 'unnamed resources of one type with a known name property replay at once',
        plan: [created('A', 'AWS::SQS::Queue'), created('B', 'AWS::SQS::Queue')],
        waits: [[], []],
      },
      {
        rule: 'a resource that depends on another is undone before it (the plan’s newest-first order)',
        plan: [created('Reader', 'AWS::SNS::Topic', {}, ['Queue']), created('Queue', 'AWS::SQS::Queue')],
        waits: [[], [0]],
      },
      {
        rule: 'the same logical id keeps its order',
        plan: [created('Q', 'AWS::SQS::Queue'), created('Q', 'AWS::SNS::Topic')],
        waits: [[], [0]],
      },
      {
        rule: 'an explicit name on either side orders two resources of one type (a freed name may be re-taken)',
        plan: [created('A', 'AWS::SQS::Queue', { QueueName: 'orders' }), created('B', 'AWS::SQS::Queue')],
        waits: [[], [0]],
      },
      {
        rule: 'types sharing a namespace of names are ordered as one type',
        plan: [
          created('Rds', 'AWS::RDS::DBCluster', { DBClusterIdentifier: 'db' }),
          created('Doc', 'AWS::DocDB::DBCluster'),
        ],
        waits: [[], [0]],
      },
      {
        rule: 'a type whose name property cdkd does not know orders its own kind',
        plan: [created('P1', 'AWS::IAM::Policy'), created('P2', 'AWS::IAM::Policy')],
        waits: [[], [0]],
      },
      {
        rule: 'what failed creates made is deleted before anything is reverted',
        plan: [
          made('M1', 'AWS::SNS::Topic'),
          made('M2', 'AWS::SQS::Queue'),
          created('C', 'AWS::Logs::LogGroup'),
        ],
        waits: [[], [], [0, 1]],
      },
      {
        rule: 'a step that only changes the journal (leave, discard) waits for nothing and holds nothing up',
        plan: [
          journalOnly(created('Q', 'AWS::SQS::Queue', { QueueName: 'orders' }), 'discard'),
          created('Q', 'AWS::SQS::Queue', { QueueName: 'orders' }),
          journalOnly(made('M', 'AWS::SQS::Queue'), 'leave'),
        ],
        waits: [[], [], []],
      },
    ],
    ({ plan, waits }) => expect(replayDependencies(plan)).toEqual(waits),
  );
});
