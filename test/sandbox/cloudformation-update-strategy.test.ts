import { describe, expect, it } from 'vitest';
import {
  decideUpdate,
  IDENTITY_PROPERTIES,
  type UpdateDecision,
  type UpdateInput,
} from '../../src/sandbox/services/cloudformation/engine/update-strategy.js';

/** Seed 004's strategy table as a pure function: one case per row. */
const base: UpdateInput = {
  recordedHash: 'old',
  newHash: 'new',
  oldProperties: { Description: 'a' },
  newProperties: { Description: 'b' },
  createOnly: [],
  hasUpdate: true,
};

describe('decideUpdate (seed 004)', () => {
  it.each<[string, Partial<UpdateInput>, UpdateDecision]>([
    ['unchanged hash: skipped', { newHash: 'old' }, { strategy: 'skip', why: 'unchanged' }],
    [
      'empty legacy hash: unchanged on the first update',
      { recordedHash: '' },
      { strategy: 'skip', why: 'legacy-hash' },
    ],
    ['handler implements update: in place', {}, { strategy: 'in-place', changed: ['Description'] }],
    [
      'a create-only property changed: replacement',
      { createOnly: ['Description'] },
      { strategy: 'replace', changed: ['Description'], immutable: ['Description'], retainOld: false },
    ],
    [
      'no update registered: replacement',
      { hasUpdate: false },
      { strategy: 'replace', changed: ['Description'], immutable: [], retainOld: false },
    ],
    [
      'UpdateReplacePolicy Retain: the old one is kept',
      { hasUpdate: false, updateReplacePolicy: 'Retain' },
      { strategy: 'replace', changed: ['Description'], immutable: [], retainOld: true },
    ],
    [
      'UpdateReplacePolicy Snapshot: the old one is kept',
      { hasUpdate: false, updateReplacePolicy: 'Snapshot' },
      { strategy: 'replace', changed: ['Description'], immutable: [], retainOld: true },
    ],
    [
      'UpdateReplacePolicy Delete: the old one is deleted',
      { hasUpdate: false, updateReplacePolicy: 'Delete' },
      { strategy: 'replace', changed: ['Description'], immutable: [], retainOld: false },
    ],
    [
      'UpdateReplacePolicy does not matter to an in-place update',
      { updateReplacePolicy: 'Retain' },
      { strategy: 'in-place', changed: ['Description'] },
    ],
  ])('%s', (_, input, expected) => {
    expect(decideUpdate({ ...base, ...input })).toEqual(expected);
  });

  it('the identity properties are the spec list', () => {
    expect([...IDENTITY_PROPERTIES].sort()).toEqual(
      [
        'BucketName',
        'TableName',
        'KeySchema',
        'QueueName',
        'FifoQueue',
        'TopicName',
        'Name',
        'LogGroupName',
        'RoleName',
        'FunctionName',
        'GroupName',
      ].sort(),
    );
  });

  it.each(IDENTITY_PROPERTIES)(
    'a change to %s forces a replacement even where the schema would update it in place',
    (property) => {
      const decision = decideUpdate({
        ...base,
        oldProperties: { [property]: 'one' },
        newProperties: { [property]: 'two' },
      });
      expect(decision).toEqual({
        strategy: 'replace',
        changed: [property],
        immutable: [property],
        retainOld: false,
      });
    },
  );
});
