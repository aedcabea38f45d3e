import { describe, expect } from 'vitest';
import { madeStep } from '../../src/rollback/made-step.js';
import type { JournalOperation, JournalSegment } from '../../src/state/documents/journal-document.js';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { ruleTable } from '../rollback-decisions/rule-table.js';

const segment = (runId: string, operations: JournalOperation[]): JournalSegment => ({
  runId,
  startedAt: '2024-01-01T00:00:00.000Z',
  cdkdVersion: 'test',
  flags: {},
  previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
  status: 'failed',
  operations,
  importMarks: [],
});

function stepFor(type: string, madeId: string, newerId: string) {
  const made = {
    seq: 0,
    logicalId: 'Made',
    action: 'create',
    type,
    status: 'failed',
    physicalId: madeId,
    made: { physicalId: madeId, provisionedBy: 'sdk', properties: {} },
  } as JournalOperation;
  const newer = {
    seq: 0,
    logicalId: 'Other',
    action: 'delete',
    type,
    status: 'completed',
    physicalId: newerId,
  } as JournalOperation;
  const older = segment('run-1', [made]);
  return madeStep(made, {
    path: 'rollback',
    segments: [older, segment('run-2', [newer])],
    segment: older,
    state: emptyStateDocument('S', 'us-east-1'),
  });
}

// Spec 000: "Wherever a path above asks whether a record holds the resource under its physical
// id, a type whose identifiers AWS matches regardless of case compares them that way".
describe('a NEWER journal segment naming the made resource', () => {
  ruleTable<{ rule: string; type: string; madeId: string; newerId: string; skipped: boolean }>(
    [
      {
        rule: 'an IAM role named in another case is the same role: the newer segment names it',
        type: 'AWS::IAM::Role',
        madeId: 'MyRole',
        newerId: 'myrole',
        skipped: true,
      },
      {
        rule: 'an RDS cluster named in another case is the same cluster',
        type: 'AWS::RDS::DBCluster',
        madeId: 'MyCluster',
        newerId: 'mycluster',
        skipped: true,
      },
      {
        rule: 'an SQS queue URL in another case is another queue: the delete goes ahead',
        type: 'AWS::SQS::Queue',
        madeId: 'https://q/Jobs',
        newerId: 'https://q/jobs',
        skipped: false,
      },
    ],
    ({ type, madeId, newerId, skipped }) => {
      const step = stepFor(type, madeId, newerId);
      expect(step.kind).toBe(skipped ? 'skip' : 'delete-made');
    },
  );
});

// Issue 25 item 15: an entry whose made resource the journal records no usable id for is that
// resource's only record; a rollback keeps it for a person, where destroy and a deploy name it and go on.
describe('a made resource the journal records no usable id for', () => {
  const torn = {
    seq: 0,
    logicalId: 'Made',
    action: 'create',
    type: 'AWS::SQS::Queue',
    status: 'failed',
    made: { physicalId: 42, provisionedBy: 'sdk', properties: {} },
  } as JournalOperation;
  const only = segment('run-1', [torn]);
  ruleTable<{
    rule: string;
    path: 'rollback' | 'automatic-rollback' | 'destroy' | 'deploy-success';
    keep: boolean;
  }>(
    [
      { rule: 'cdkd rollback warns and keeps the entry', path: 'rollback', keep: true },
      { rule: 'the automatic rollback warns and keeps the entry', path: 'automatic-rollback', keep: true },
      { rule: 'cdkd destroy warns and drops it with the journal', path: 'destroy', keep: false },
      {
        rule: 'a successful deploy warns and drops it with the journal',
        path: 'deploy-success',
        keep: false,
      },
    ],
    ({ path, keep }) => {
      const step = madeStep(torn, {
        path,
        segments: [only],
        segment: only,
        state: emptyStateDocument('S', 'us-east-1'),
      });
      expect(step).toMatchObject({
        kind: 'skip',
        warn: true,
        reason: expect.stringContaining('only record'),
      });
      expect(step.kind === 'skip' && step.keep === true).toBe(keep);
    },
  );
});
