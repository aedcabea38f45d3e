import { describe, expect, it } from 'vitest';
import { decideDropFailed } from '../../src/rollback-decisions/drop-failed.js';
import type { JournalOperation, JournalSegment } from '../../src/state/documents/journal-document.js';

const op = (extra: Partial<JournalOperation> = {}): JournalOperation => ({
  seq: 0,
  logicalId: 'Q',
  action: 'update',
  type: 'AWS::SQS::Queue',
  status: 'failed',
  ...extra,
});

const segment = (status: JournalSegment['status'], operations: JournalOperation[]): JournalSegment => ({
  runId: 'run-1',
  startedAt: '',
  cdkdVersion: '0',
  flags: {},
  previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
  status,
  operations,
  importMarks: [],
});

const made = { physicalId: 'q-1', provisionedBy: 'sdk' as const, properties: {} };

describe('decideDropFailed: what --drop-failed does with a journal', () => {
  it.each([
    ['no journal', [], 'nothing'],
    [
      'only failed-only segments',
      [segment('failed-only', [op()]), segment('failed-only', [op({ logicalId: 'R' })])],
      'drop',
    ],
    ['a run not rolled back', [segment('failed', [op()])], 'refuse'],
    [
      'an interrupted run beside a failed-only one',
      [segment('failed-only', [op()]), segment('interrupted', [op()])],
      'refuse',
    ],
    [
      'a failed create that made its resource',
      [segment('failed-only', [op({ action: 'create', made })])],
      'refuse',
    ],
    ['an entry a deploy kept', [segment('failed-only', [op({ keptByDeploy: true })])], 'refuse'],
  ])('%s -> %s', (_case, segments, kind) => {
    expect(decideDropFailed(segments).kind).toBe(kind);
  });

  it('names each dropped operation and says nothing is sent to AWS', () => {
    expect(decideDropFailed([segment('failed-only', [op()])])).toEqual({
      kind: 'drop',
      lines: [
        'Q (AWS::SQS::Queue): failed update of run run-1; dropped from the journal, nothing sent to AWS',
      ],
    });
  });
});
