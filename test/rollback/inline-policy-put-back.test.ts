import { describe, expect, it } from 'vitest';
import type { StackState } from '../../src/stack-state/stack-state.js';
import { putBackInlinePolicies } from '../../src/rollback/inline-policy-put-back.js';
import type { PlannedStep } from '../../src/rollback/plan-rollback.js';
import type { ReplayServices, StepOutcome } from '../../src/rollback/replay-step.js';
import type { JournalOperation } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';

const policy = (name: string): ResourceRecord => ({
  type: 'AWS::IAM::Policy',
  physicalId: `id-${name}`,
  properties: { PolicyName: name, PolicyDocument: { Statement: [] }, Roles: ['r1'] },
  attributes: {},
  provisionedBy: 'sdk',
  dependencies: [],
});
const op = (logicalId: string) => ({ logicalId, type: 'AWS::IAM::Policy' }) as JournalOperation;

/** B's delete removed "shared" from r1; A, whose record holds "shared" there, had its own step end as given. */
function run(outcomeOfA: StepOutcome | undefined) {
  const planned: PlannedStep[] = [
    { op: op('B'), step: { kind: 'delete', logicalId: 'B', record: policy('shared'), retain: false } },
    {
      op: op('A'),
      step: { kind: 'revert', logicalId: 'A', before: policy('shared'), current: policy('renamed') },
    },
  ];
  const outcomes = [{ logicalId: 'B', status: 'succeeded', warn: false, message: '' } as StepOutcome];
  if (outcomeOfA) outcomes.push(outcomeOfA);
  const services = {
    state: { document: { resources: { A: policy('shared') } } } as unknown as StackState,
  } as ReplayServices;
  return putBackInlinePolicies(planned, outcomes, services);
}

describe('putBackInlinePolicies: a holder whose own rollback did not complete', () => {
  it.each([
    ['failed', { logicalId: 'A', status: 'failed', warn: false, message: 'boom' } as StepOutcome],
    [
      'skipped with a warning',
      { logicalId: 'A', status: 'skipped', warn: true, message: 'x' } as StepOutcome,
    ],
    ['never reached (interrupted)', undefined],
  ])('%s: nothing is put back, and the rollback warns', async (_, outcome) => {
    expect(await run(outcome)).toEqual([
      expect.objectContaining({
        logicalId: 'A',
        status: 'skipped',
        warn: true,
        message: expect.stringContaining('did not complete'),
      }),
    ]);
  });
});
