import { describe, expect, it } from 'vitest';
import { approvalNeeded, type ApprovalFacts, type ApprovalLevel } from '../../../src/plan/index.js';

const NOTHING: ApprovalFacts = { changes: false, broadened: false };
const CHANGES: ApprovalFacts = { changes: true, broadened: false };
const BROADENING: ApprovalFacts = { changes: true, broadened: true };

// One row per level and kind of change, as the CDK CLI's requiresApproval decides them.
const TABLE: Array<[ApprovalLevel, ApprovalFacts, boolean]> = [
  ['never', NOTHING, false],
  ['never', CHANGES, false],
  ['never', BROADENING, false],
  ['any-change', NOTHING, false],
  ['any-change', CHANGES, true],
  ['any-change', BROADENING, true],
  ['broadening', NOTHING, false],
  ['broadening', CHANGES, false],
  ['broadening', BROADENING, true],
];

describe('approvalNeeded', () => {
  it.each(TABLE)('%s with %o: %s', (level, facts, expected) => {
    expect(approvalNeeded(level, facts)).toBe(expected);
  });
});
