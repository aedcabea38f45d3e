import { describe, expect, it } from 'vitest';
import { suspectRecords } from '../../src/engine/journal/stale-records.js';
import type { JournalOperation, JournalSegment } from '../../src/state/documents/journal-document.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';

const record = (physicalId: string, type = 'AWS::SQS::Queue'): ResourceRecord => ({
  type,
  physicalId,
  properties: {},
  attributes: {},
  propertyHash: 'h',
  provisionedBy: 'sdk',
  dependencies: [],
});

const segment = (operations: Array<Partial<JournalOperation>>, command?: 'destroy'): JournalSegment => ({
  runId: 'run',
  startedAt: '2026-01-01T00:00:00Z',
  cdkdVersion: 'test',
  flags: {},
  previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
  ...(command ? { command } : {}),
  status: 'running',
  importMarks: [],
  operations: operations.map((op, seq) => ({
    seq,
    logicalId: 'Queue',
    action: 'delete',
    type: 'AWS::SQS::Queue',
    status: 'in-flight',
    physicalId: 'q-1',
    ...op,
  })),
});

// One row per case of the rule: which records a later command reads from the cloud.
const rows: Array<[string, JournalSegment[], Record<string, ResourceRecord>, string[]]> = [
  [
    'a delete in flight whose record state still holds',
    [segment([{}], 'destroy')],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  [
    'a completed delete whose state save was lost',
    [segment([{ status: 'completed' }], 'destroy')],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  [
    'a failed delete (its state save may have failed after the call)',
    [segment([{ status: 'failed' }])],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  ["a deploy run's delete, not only a destroy's", [segment([{}])], { Queue: record('q-1') }, ['Queue']],
  ['a delete whose record is already gone from state', [segment([{}], 'destroy')], {}, []],
  ['a record that now names another resource', [segment([{}], 'destroy')], { Queue: record('q-2') }, []],
  [
    'a record of another type under the same id',
    [segment([{}], 'destroy')],
    { Queue: record('q-1', 'AWS::SNS::Topic') },
    [],
  ],
  [
    'a create whose resource state still records (an interrupted rollback deletes it)',
    [segment([{ action: 'create', status: 'completed' }])],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  [
    "a replacement's new copy state records (an interrupted rollback deletes it)",
    [segment([{ action: 'replace', status: 'completed', previousPhysicalId: 'q-0' }])],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  [
    "a replacement's old copy state still records (a delete-first order deletes it first)",
    [segment([{ action: 'replace', physicalId: undefined, previousPhysicalId: 'q-1' }])],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  [
    "a Type-changing replacement's old copy, under its old type",
    [
      segment([
        {
          action: 'replace',
          type: 'AWS::SNS::Topic',
          previousType: 'AWS::SQS::Queue',
          physicalId: undefined,
          previousPhysicalId: 'q-1',
        },
      ]),
    ],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  [
    'an update of the resource state records (an interrupted rollback reverts it)',
    [segment([{ action: 'update', status: 'completed' }])],
    { Queue: record('q-1') },
    ['Queue'],
  ],
  [
    'a record cdkd cannot address (whitespace-only id) is never read',
    [segment([{ action: 'update', status: 'completed', physicalId: '   ' }])],
    { Queue: record('   ') },
    [],
  ],
  [
    'a create that recorded another resource than state now holds',
    [segment([{ action: 'create', status: 'completed', physicalId: 'q-9' }])],
    { Queue: record('q-1') },
    [],
  ],
  ['an unchanged record no journal entry names', [], { Queue: record('q-1') }, []],
  [
    'the same record named by two segments is read once',
    [segment([{}]), segment([{}], 'destroy')],
    { Queue: record('q-1') },
    ['Queue'],
  ],
];

describe('suspectRecords', () => {
  it.each(rows)('%s', (_, segments, resources, expected) => {
    const state = { ...emptyStateDocument('S', 'us-east-1'), resources };
    expect(suspectRecords(segments, state).map((suspect) => suspect.logicalId)).toEqual(expected);
  });
});

// Which suspects carry the record a rollback of their update reverts to (compared live).
const before = record('q-1');
const applied = { ...record('q-1'), properties: { VisibilityTimeout: 60 }, propertyHash: 'applied' };
const update = (fields: Partial<JournalOperation>) => ({
  action: 'update' as const,
  status: 'completed' as const,
  before,
  after: applied,
  ...fields,
});
const revertRows: Array<[string, JournalSegment[], ResourceRecord, ResourceRecord | undefined]> = [
  ['a completed update whose applied record state holds', [segment([update({})])], applied, before],
  ['a completed update whose record state no longer holds', [segment([update({})])], before, undefined],
  [
    'a failed update (state kept the pre-deploy record)',
    [segment([update({ status: 'failed' })])],
    applied,
    undefined,
  ],
  [
    "a nested stack's update (its own records settle it)",
    [segment([update({ type: 'AWS::CloudFormation::Stack' })])],
    { ...applied, type: 'AWS::CloudFormation::Stack' },
    undefined,
  ],
  [
    'the newest of two updates decides, an older segment naming the same record',
    [segment([update({})]), segment([{ action: 'create', status: 'completed' }])],
    applied,
    before,
  ],
];

describe('suspectRecords: updates a rollback may have reverted', () => {
  it.each(revertRows)('%s', (_, segments, recorded, revertsTo) => {
    const state = { ...emptyStateDocument('S', 'us-east-1'), resources: { Queue: recorded } };
    expect(suspectRecords(segments, state)[0]?.revertsTo).toEqual(revertsTo);
  });
});
