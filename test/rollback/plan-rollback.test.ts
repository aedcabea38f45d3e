import { describe, expect } from 'vitest';
import { planRollback } from '../../src/rollback/plan-rollback.js';
import type { JournalSegment } from '../../src/state/documents/journal-document.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';
import { ruleTable } from '../rollback-decisions/rule-table.js';

const NESTED = 'AWS::CloudFormation::Stack';

const child = (physicalId: string, provisionedBy: ResourceRecord['provisionedBy']): ResourceRecord => ({
  type: NESTED,
  physicalId,
  properties: {},
  attributes: {},
  provisionedBy,
  dependencies: [],
});

function plan(record: ResourceRecord) {
  const segment: JournalSegment = {
    runId: 'run-1',
    startedAt: '2024-01-01T00:00:00.000Z',
    cdkdVersion: 'test',
    flags: {},
    previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
    status: 'failed',
    operations: [
      {
        seq: 0,
        logicalId: 'Child',
        action: 'update',
        type: NESTED,
        status: 'completed',
        before: record,
        after: record,
        physicalId: record.physicalId,
      },
    ],
    importMarks: [],
  };
  const state = emptyStateDocument('Top', 'us-east-1');
  state.resources.Child = record;
  return planRollback({
    segment,
    segments: [segment],
    state,
    options: { revertFailed: false, orphan: new Set() },
    path: 'rollback',
    knownType: () => true,
  }).map(({ step }) => step);
}

// Spec 000, "An operation cdkd cannot address": "A nested stack's record is exempt, since
// its child is found by name, unless it is recorded on Cloud Control."
describe("a nested stack's update whose record holds no usable id", () => {
  ruleTable<{ rule: string; record: ResourceRecord; expected: Record<string, unknown> }>(
    [
      {
        rule: "cdkd's own nested stack is exempt: its journal is replayed, found by name",
        record: child('', 'sdk'),
        expected: { kind: 'nested', logicalId: 'Child', runId: 'run-1' },
      },
      {
        rule: 'one recorded on Cloud Control is not: skipped with a warning',
        record: child('', 'cc-api'),
        expected: { kind: 'skip', warn: true },
      },
      {
        rule: 'one recorded on Cloud Control under a usable id is replayed as usual',
        record: child('arn:aws:cloudformation:us-east-1:1:stack/Top-Child/x', 'cc-api'),
        expected: { kind: 'nested' },
      },
    ],
    ({ record, expected }) => expect(plan(record)).toEqual([expect.objectContaining(expected)]),
  );
});
