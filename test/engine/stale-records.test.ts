import { describe, expect, it } from 'vitest';
import { suspectRecords } from '../../src/engine/stale-records.js';
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
    'a create, update or replace: never a suspect',
    [segment([{ action: 'create' }, { action: 'update' }, { action: 'replace' }])],
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
