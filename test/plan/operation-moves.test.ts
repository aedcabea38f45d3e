import { describe, expect, it } from 'vitest';
import { operationMoves, type PlannedOperation } from '../../src/plan/index.js';

const op = (over: Partial<PlannedOperation> = {}): PlannedOperation => ({
  logicalId: 'Queue',
  kind: 'update',
  type: 'AWS::SQS::Queue',
  physicalId: 'https://queue/Q',
  reason: 'VisibilityTimeout changed',
  changedProperties: ['VisibilityTimeout'],
  replacementCauses: [],
  notes: [],
  propertyHash: 'a'.repeat(64),
  dependsOn: [],
  phase: 'deploy',
  reresolveAfter: [],
  replacedIfIdChanges: false,
  ...over,
});

/** One row per way the plan made under the lock can differ from the saved one. */
describe('a saved plan against the plan made now', () => {
  it.each([
    { differs: 'nowhere', now: [op()], says: [] },
    {
      differs: 'only in prose (reason, notes)',
      now: [op({ reason: 'other words', notes: ['n'] })],
      says: [],
    },
    { differs: 'in kind', now: [op({ kind: 'replace' })], says: ['Queue: planned update, now replace'] },
    { differs: 'by an operation gone', now: [], says: ['Queue: planned update, now not in the plan'] },
    {
      differs: 'by a new operation',
      now: [op(), op({ logicalId: 'Topic', kind: 'create' })],
      says: ['Topic: not in the saved plan, now create'],
    },
    {
      differs: 'in the properties sent',
      now: [op({ propertyHash: 'b'.repeat(64) })],
      says: ['Queue: update planned with other details'],
    },
    {
      differs: 'in the resource acted on',
      now: [op({ physicalId: 'https://queue/Other' })],
      says: ['Queue: update planned with other details'],
    },
    {
      differs: 'in the layer it is re-created on',
      now: [op({ recreateVia: 'cc-api' })],
      says: ['Queue: update planned with other details'],
    },
  ])('differs $differs', ({ now, says }) => {
    expect(operationMoves([op()], now)).toEqual(says);
  });
});
