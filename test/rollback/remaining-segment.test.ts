import { describe, expect } from 'vitest';
import { decideOperation } from '../../src/rollback-decisions/operation.js';
import type { PlannedStep } from '../../src/rollback/plan-rollback.js';
import type { StepOutcome } from '../../src/rollback/replay-step.js';
import { remainingSegment, type RollbackReport } from '../../src/rollback/run-rollback.js';
import type { RollbackStep } from '../../src/rollback-decisions/steps.js';
import type { JournalOperation, JournalSegment } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { ruleTable } from '../rollback-decisions/rule-table.js';

const op = (seq: number, logicalId: string, status: JournalOperation['status']): JournalOperation =>
  ({ seq, logicalId, type: 'AWS::SQS::Queue', action: 'update', status }) as JournalOperation;

const completed = op(0, 'Done', 'completed');
const failed = op(1, 'Failed', 'failed');
const other = op(2, 'Other', 'completed');

const segment: JournalSegment = {
  runId: 'run-1',
  startedAt: '2024-01-01T00:00:00.000Z',
  cdkdVersion: 'test',
  flags: {},
  previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
  status: 'failed',
  operations: [completed, failed, other],
  importMarks: [],
};

const leave = (entry: JournalOperation): RollbackStep => ({
  kind: 'leave',
  logicalId: entry.logicalId,
  command: "cdkd rollback 'Top~Child' --revert-failed",
});
const discard = (entry: JournalOperation): RollbackStep => ({
  kind: 'discard',
  logicalId: entry.logicalId,
  reason: 'the journal of Top no longer holds run run-1; the nested stack keeps this change',
});
/** A failed operation a plain rollback passes over, kept for --revert-failed. */
const passedOver = (entry: JournalOperation): RollbackStep => ({
  kind: 'skip',
  logicalId: entry.logicalId,
  reason: 'failed during the deploy; cdkd rollback --revert-failed reverts it',
  warn: false,
  keep: true,
});
const skip = (entry: JournalOperation): RollbackStep => ({
  kind: 'skip',
  logicalId: entry.logicalId,
  reason: 'r',
  warn: false,
});

function report(steps: Array<[JournalOperation, RollbackStep, StepOutcome['status']]>): RollbackReport {
  const planned: PlannedStep[] = steps.map(([entry, step]) => ({ op: entry, step }));
  const outcomes = steps.map(([entry, , status]) => ({
    logicalId: entry.logicalId,
    status,
    warn: false,
    message: '',
  }));
  return { planned, outcomes, putBacks: [], exitCode: 0, clean: true, interrupted: false };
}

// Spec 001, "Nested stacks": what a nested stack's journal keeps after a command rollback.
describe('remainingSegment of a nested stack’s rollback', () => {
  ruleTable<{ rule: string; steps: Parameters<typeof report>[0]; kept?: JournalSegment }>(
    [
      {
        rule: "a parent's replay keeps only the failed operations it left for the nested stack's own rollback",
        steps: [
          [other, skip(other), 'skipped'],
          [failed, leave(failed), 'skipped'],
          [completed, skip(completed), 'skipped'],
        ],
        kept: { ...segment, status: 'failed-only', operations: [failed] },
      },
      {
        rule: 'a direct rollback that discarded the completed operations keeps only the failed one, for --revert-failed',
        steps: [
          [other, discard(other), 'skipped'],
          [failed, passedOver(failed), 'skipped'],
          [completed, discard(completed), 'skipped'],
        ],
        kept: { ...segment, status: 'failed-only', operations: [failed] },
      },
      {
        rule: 'after a failed step in a direct rollback, a discarded operation is not kept',
        steps: [
          [other, discard(other), 'skipped'],
          [failed, skip(failed), 'failed'],
          [completed, discard(completed), 'skipped'],
        ],
        kept: { ...segment, status: 'failed', operations: [failed] },
      },
      {
        rule: "after a failed step in a parent's replay, an operation left for the nested stack is kept",
        steps: [
          [other, skip(other), 'failed'],
          [failed, leave(failed), 'skipped'],
          [completed, skip(completed), 'succeeded'],
        ],
        kept: { ...segment, status: 'failed', operations: [failed, other] },
      },
    ],
    ({ steps, kept }) => expect(remainingSegment(segment, report(steps), 'rollback')).toEqual(kept),
  );
});

// Spec 003, "The journal's lifetime": a failed operation stays until --revert-failed acts on it.
describe('remainingSegment of a command rollback', () => {
  const createdWithId = {
    ...op(4, 'Created', 'failed'),
    action: 'create',
    physicalId: 'q-1',
  } as JournalOperation;
  const createdWithoutId = { ...op(5, 'Refused', 'failed'), action: 'create' } as JournalOperation;
  const typeChange = {
    ...op(6, 'Retyped', 'failed'),
    action: 'replace',
    previousType: 'AWS::SNS::Topic',
  } as JournalOperation;
  const queue: ResourceRecord = {
    type: 'AWS::SQS::Queue',
    physicalId: 'q-0',
    properties: {},
    attributes: {},
    provisionedBy: 'sdk',
    dependencies: [],
  };
  // Updates of a resource state still records: the rollback reverts the completed one.
  const reverted = { ...completed, before: queue } as JournalOperation;
  const failedUpdate = { ...failed, before: queue } as JournalOperation;
  const all: JournalSegment = {
    ...segment,
    operations: [reverted, failedUpdate, createdWithId, createdWithoutId, typeChange],
  };
  // The steps as the decision table makes them, so the table and what the journal keeps are read together.
  const stepsWith = (revertFailed: boolean): Parameters<typeof report>[0] =>
    all.operations.map((entry) => [
      entry,
      decideOperation(entry, {
        ...(entry === reverted || entry === failedUpdate ? { record: queue } : {}),
        oldPending: false,
        revertFailed,
        orphaned: false,
        knownType: () => true,
        holdsData: () => false,
        replacedOrDeleted: new Map(),
      }),
      entry === reverted ? 'succeeded' : 'skipped',
    ]);
  ruleTable<{ rule: string; revertFailed: boolean; kept?: JournalSegment }>(
    [
      {
        rule: 'without --revert-failed, the failed UPDATE and the failed CREATE that recorded an id stay, as the plan line promises',
        revertFailed: false,
        kept: { ...all, status: 'failed-only', operations: [failedUpdate, createdWithId] },
      },
      {
        rule: 'with --revert-failed, nothing is left',
        revertFailed: true,
      },
    ],
    ({ revertFailed, kept }) =>
      expect(remainingSegment(all, report(stepsWith(revertFailed)), 'rollback')).toEqual(kept),
  );
});

// Spec 003, "The journal's lifetime", and spec 000: what the automatic rollback leaves.
describe('remainingSegment of an automatic rollback', () => {
  const made = { ...op(3, 'Made', 'failed'), made: { physicalId: 'made-1' } } as JournalOperation;
  const withMade: JournalSegment = { ...segment, operations: [completed, failed, made] };
  ruleTable<{ rule: string; steps: Parameters<typeof report>[0]; clean: boolean; kept?: JournalSegment }>(
    [
      {
        rule: 'a clean one keeps a failed-only segment: the failed operations, not those that made their resource',
        steps: [
          [completed, skip(completed), 'succeeded'],
          [failed, skip(failed), 'skipped'],
          [made, skip(made), 'succeeded'],
        ],
        clean: true,
        kept: { ...withMade, status: 'failed-only', operations: [failed] },
      },
      {
        rule: 'one that skipped an operation with a warning keeps the full segment',
        steps: [
          [completed, skip(completed), 'skipped'],
          [failed, skip(failed), 'skipped'],
          [made, skip(made), 'succeeded'],
        ],
        clean: false,
        kept: { ...withMade, status: 'failed' },
      },
      {
        rule: 'a delete that fails keeps the entry: the automatic rollback keeps its full segment',
        steps: [
          [completed, skip(completed), 'succeeded'],
          [failed, skip(failed), 'skipped'],
          [made, skip(made), 'failed'],
        ],
        clean: false,
        kept: { ...withMade, status: 'failed' },
      },
    ],
    ({ steps, clean, kept }) =>
      expect(remainingSegment(withMade, { ...report(steps), clean }, 'automatic-rollback')).toEqual(kept),
  );
});
