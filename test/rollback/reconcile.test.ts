import { describe, expect, it } from 'vitest';
import { reconcileInFlight } from '../../src/rollback/reconcile.js';
import type { JournalOperation, JournalSegment } from '../../src/state/documents/journal-document.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';

const record = (physicalId: string): ResourceRecord => ({
  type: 'AWS::SSM::Parameter',
  physicalId,
  properties: {},
  attributes: {},
  provisionedBy: 'sdk',
  dependencies: [],
});

const replacement = (order: 'create-first' | 'delete-first'): JournalOperation => ({
  seq: 0,
  logicalId: 'Param',
  action: 'replace',
  type: 'AWS::SSM::Parameter',
  status: 'in-flight',
  before: record('/p'),
  previousPhysicalId: '/p',
  idempotencyToken: 'token',
  verdict: { replacement: true, order },
});

const segment = (op: JournalOperation): JournalSegment => ({
  runId: 'run',
  startedAt: '2026-01-01T00:00:00Z',
  cdkdVersion: 'test',
  flags: {},
  previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
  status: 'running',
  importMarks: [],
  operations: [op],
});

// A replacement killed mid-way: whether its old copy went is what state still records.
const rows: Array<
  [string, 'create-first' | 'delete-first', ResourceRecord | undefined, boolean | undefined]
> = [
  ['delete-first, no record left: the old copy went', 'delete-first', undefined, true],
  [
    'delete-first, the old record still in state: nothing says it went',
    'delete-first',
    record('/p'),
    undefined,
  ],
  ['create-first, no record left: the old copy is never deleted first', 'create-first', undefined, undefined],
];

describe('reconcileInFlight: the old copy of an in-flight replacement', () => {
  it.each(rows)('%s', async (_, order, recorded, oldDeleted) => {
    const op = replacement(order);
    const state = emptyStateDocument('S', 'us-east-1');
    if (recorded) state.resources.Param = recorded;
    await reconcileInFlight(segment(op), state, async () => 'unknown');
    expect(op.verdict?.oldDeleted).toBe(oldDeleted);
    expect(op.status).toBe('in-flight');
  });
});
