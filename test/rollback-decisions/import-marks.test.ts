import { describe, expect } from 'vitest';
import { ruleTable } from './rule-table.js';
import type { ImportMark, JournalOperation } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { importMarkLine, type ImportMarkLine } from '../../src/rollback-decisions/import-marks.js';

const QUEUE = 'AWS::SQS::Queue';
const record = (physicalId: string, type = QUEUE): ResourceRecord => ({
  type,
  physicalId,
  properties: {},
  attributes: {},
  provisionedBy: 'sdk',
  dependencies: [],
});
const op = (overrides: Partial<JournalOperation>): JournalOperation => ({
  seq: 1,
  logicalId: 'Queue',
  action: 'create',
  type: QUEUE,
  status: 'completed',
  physicalId: 'jobs',
  ...overrides,
});
const mark = (physicalId: string, type = QUEUE): ImportMark => ({
  logicalId: 'Queue',
  type,
  physicalId,
  at: '2024-05-02T00:00:00Z',
});
const replacement = (overrides: Partial<JournalOperation>) =>
  op({
    action: 'replace',
    physicalId: 'jobs-2',
    previousPhysicalId: 'jobs',
    before: record('jobs'),
    ...overrides,
  });

const ADOPTED: ImportMarkLine = {
  warn: false,
  line: 'adopted by cdkd import after this deploy, left as it is',
};

// Spec 001, "Interaction with cdkd import".
describe('importMarkLine', () => {
  ruleTable<{ rule: string; op: JournalOperation; mark: ImportMark; result: ImportMarkLine }>(
    [
      {
        rule: 'The same resource the import adopted (same physical ID and type) ... Plan line: adopted by cdkd import after this deploy, left as it is',
        op: op({}),
        mark: mark('jobs'),
        result: ADOPTED,
      },
      {
        rule: 'for a delete, the entry the import removed',
        op: op({ action: 'delete', physicalId: undefined, before: record('jobs') }),
        mark: mark('jobs'),
        result: ADOPTED,
      },
      {
        rule: 'A different resource under the same logical ID (another physical ID) ... warns',
        op: op({}),
        mark: mark('jobs-by-hand'),
        result: {
          warn: true,
          line: 'recorded jobs, which cdkd import has since replaced under this id; not reverted, check that resource by hand',
        },
      },
      {
        rule: 'A different resource under the same logical ID (another ... type) ... warns',
        op: op({}),
        mark: mark('jobs', 'AWS::SNS::Topic'),
        result: {
          warn: true,
          line: 'recorded jobs, which cdkd import has since replaced under this id; not reverted, check that resource by hand',
        },
      },
      {
        rule: 'A replacement whose new resource the import adopted, while the old one was kept: replaced <old physical id> but kept it',
        op: replacement({ verdict: { replacement: true, oldRetained: true } }),
        mark: mark('jobs-2'),
        result: {
          warn: true,
          line: expect.stringMatching(
            /^replaced jobs but kept it.*not reverted, check that resource by hand$/,
          ),
        },
      },
      {
        rule: '"May have been kept" applies when the journal recorded no verdict, as on a failed operation',
        op: replacement({ status: 'failed' }),
        mark: mark('jobs-2'),
        result: {
          warn: true,
          line: expect.stringMatching(
            /^replaced jobs and may have kept it.*not reverted, check that resource by hand$/,
          ),
        },
      },
      {
        rule: 'If the import put the old resource back, the replacement is left running and reported as in the third case',
        op: replacement({ verdict: { replacement: true, oldRetained: true } }),
        mark: mark('jobs'),
        result: {
          warn: true,
          line: expect.stringMatching(/^replaced jobs but kept it.*check that resource by hand$/),
        },
      },
      {
        rule: "A replacement here includes a Type change that kept the resource's name",
        op: replacement({
          type: 'AWS::SNS::Topic',
          previousType: QUEUE,
          physicalId: 'jobs',
          before: record('jobs'),
        }),
        mark: mark('jobs', 'AWS::SNS::Topic'),
        result: {
          warn: true,
          line: expect.stringMatching(/^replaced jobs and may have kept it.*check that resource by hand$/),
        },
      },
      {
        rule: 'Only its new resource counts as what the operation recorded: when the deploy deleted the old one, the import adopted the same resource',
        op: replacement({ verdict: { replacement: true, oldDeleted: true } }),
        mark: mark('jobs-2'),
        result: ADOPTED,
      },
      {
        rule: 'Only its new resource counts as what the operation recorded: a mark naming neither copy is a different resource',
        op: replacement({ verdict: { replacement: true } }),
        mark: mark('jobs-by-hand'),
        result: {
          warn: true,
          line: 'recorded jobs-2, which cdkd import has since replaced under this id; not reverted, check that resource by hand',
        },
      },
    ],
    ({ op: operation, mark: given, result }) => {
      expect(importMarkLine(operation, given)).toEqual(result);
    },
  );
});
