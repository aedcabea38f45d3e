import { describe, expect } from 'vitest';
import { decideOperation, type OperationContext } from '../../src/rollback-decisions/operation.js';
import type { JournalOperation } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { ruleTable } from './rule-table.js';

const record = (physicalId: string, extra: Partial<ResourceRecord> = {}): ResourceRecord => ({
  type: 'AWS::SQS::Queue',
  physicalId,
  properties: { VisibilityTimeout: 30 },
  attributes: {},
  provisionedBy: 'sdk',
  dependencies: [],
  ...extra,
});

const op = (fields: Partial<JournalOperation>): JournalOperation => ({
  seq: 0,
  logicalId: 'Q',
  action: 'create',
  type: 'AWS::SQS::Queue',
  status: 'completed',
  ...fields,
});

const context = (fields: Partial<OperationContext> = {}): OperationContext => ({
  oldPending: false,
  revertFailed: false,
  orphaned: false,
  knownType: () => true,
  holdsData: () => false,
  replacedOrDeleted: new Map(),
  ...fields,
});

interface Row {
  rule: string;
  op: JournalOperation;
  context: OperationContext;
  expected: Record<string, unknown>;
  /** Fields the step must not carry at all. */
  absent?: readonly string[];
}

const check = ({ op: operation, context: ctx, expected, absent = [] }: Row): void => {
  const step = decideOperation(operation, ctx);
  expect(step).toMatchObject(expected);
  for (const key of absent) expect(step).not.toHaveProperty(key);
};

const replaced = (fields: Partial<JournalOperation> = {}) =>
  op({
    action: 'replace',
    before: record('old'),
    after: record('new'),
    physicalId: 'new',
    previousPhysicalId: 'old',
    verdict: { replacement: true, order: 'create-first' },
    ...fields,
  });

describe('--revert-failed, per failed operation (spec 000)', () => {
  ruleTable<Row>(
    [
      {
        rule: 'UPDATE: force-reverted to its pre-deploy properties; the journal records the attempted properties, so patch-based providers generate a real undo diff',
        op: op({
          action: 'update',
          status: 'failed',
          before: record('q', { properties: { A: 1 } }),
          attempted: { A: 2 },
        }),
        context: context({ revertFailed: true, record: record('q') }),
        expected: {
          kind: 'revert',
          before: { physicalId: 'q', properties: { A: 1 } },
          attempted: { A: 2 },
        },
      },
      {
        rule: 'UPDATE that was a replacement whose new resource was made and then failed: never force-reverted; create-first leaves the old resource untouched',
        op: replaced({ status: 'failed', made: { physicalId: 'new', provisionedBy: 'sdk', properties: {} } }),
        context: context({ revertFailed: true, record: record('old') }),
        expected: { kind: 'skip', warn: false },
      },
      {
        rule: 'UPDATE that was a replacement which deleted the old resource first: warns (exit 2) that the resource state records is gone',
        op: replaced({
          status: 'failed',
          verdict: { replacement: true, order: 'delete-first', oldDeleted: true },
        }),
        context: context({ revertFailed: true, record: record('old') }),
        expected: { kind: 'skip', warn: true },
      },
      {
        rule: 'UPDATE that was a replacement which deleted the old resource first, whose record state no longer holds: warns (exit 2) that a deploy creates it again',
        op: replaced({
          status: 'failed',
          verdict: { replacement: true, order: 'delete-first', oldDeleted: true },
        }),
        context: context({ revertFailed: true }),
        expected: {
          kind: 'skip',
          warn: true,
          reason:
            'the replacement deleted old first and then failed: it is gone and no longer in state; cdkd deploy creates it again',
        },
      },
      {
        rule: "UPDATE that changed the resource's Type: skipped with a warning; it was a replacement in flight",
        op: replaced({
          status: 'failed',
          previousType: 'AWS::SNS::Topic',
          before: record('old', { type: 'AWS::SNS::Topic' }),
          after: undefined,
        }),
        context: context({ revertFailed: true, record: record('old', { type: 'AWS::SNS::Topic' }) }),
        expected: { kind: 'skip', warn: true, reason: expect.stringContaining('changed its Type') },
      },
      {
        rule: 'UPDATE whose state record has no usable physicalId: skipped with a warning (exit 2); nothing is sent, and the journal keeps its entry',
        op: op({ action: 'update', status: 'failed', before: record('q') }),
        context: context({ revertFailed: true, record: record('  ') }),
        expected: { kind: 'skip', warn: true, keep: true },
      },
      {
        rule: 'CREATE that recorded a physical id, which state still records: deleted, honouring its DeletionPolicy',
        op: op({ status: 'failed', physicalId: 'q', deletionPolicy: 'Retain' }),
        context: context({ revertFailed: true, record: record('q') }),
        expected: { kind: 'delete', retain: true },
      },
      {
        rule: 'CREATE that made its resource and then failed: acted on through its own entry',
        op: op({ status: 'failed', made: { physicalId: 'q', provisionedBy: 'sdk', properties: {} } }),
        context: context({ revertFailed: true }),
        expected: { kind: 'skip', warn: false },
      },
      {
        rule: 'CREATE that recorded a physical id, with no state record left: nothing to do (a re-run)',
        op: op({ status: 'failed', physicalId: 'q' }),
        context: context({ revertFailed: true }),
        expected: { kind: 'skip', warn: false },
      },
      {
        rule: 'CREATE that recorded a physical id other than the one state now records: skipped with a warning naming it',
        op: op({ status: 'failed', physicalId: 'q-1' }),
        context: context({ revertFailed: true, record: record('q-2') }),
        expected: {
          kind: 'skip',
          warn: true,
          reason:
            'recorded q-1, which is not the resource state tracks under this id; not reverted, needs manual attention',
        },
      },
      {
        rule: 'CREATE that recorded no physical id: skipped with a warning',
        op: op({ status: 'failed' }),
        context: context({ revertFailed: true }),
        expected: { kind: 'skip', warn: true },
      },
      {
        rule: 'DELETE: nothing to do, the resource is still in place',
        op: op({ action: 'delete', status: 'failed', physicalId: 'q' }),
        context: context({ revertFailed: true, record: record('q') }),
        expected: { kind: 'skip', warn: false },
      },
      {
        rule: 'Without --revert-failed a failed operation is left for it',
        op: op({ action: 'update', status: 'failed', before: record('q') }),
        context: context({ record: record('q') }),
        expected: { kind: 'skip', warn: false, reason: expect.stringContaining('--revert-failed') },
      },
      {
        rule: 'Without --revert-failed, a failed CREATE that made its resource says its own entry handles it (no flag needed)',
        op: op({
          status: 'failed',
          physicalId: 'q',
          made: { physicalId: 'q', provisionedBy: 'sdk', properties: {} },
        }),
        context: context(),
        expected: { kind: 'skip', warn: false, reason: expect.stringContaining('handled by its own entry') },
      },
      {
        rule: 'Without --revert-failed, a failed replacement says there is nothing to revert (the flag would not change that)',
        op: replaced({ status: 'failed' }),
        context: context({ record: record('old') }),
        expected: { kind: 'skip', warn: false, reason: expect.stringContaining('nothing to revert') },
      },
      {
        rule: 'Without --revert-failed, a failed CREATE that recorded no id says there is nothing to revert',
        op: op({ status: 'failed' }),
        context: context(),
        expected: { kind: 'skip', warn: false, reason: expect.stringContaining('nothing to revert') },
      },
    ],
    check,
  );
});

const retainedOld = (fields: Partial<JournalOperation> = {}) =>
  replaced({ verdict: { replacement: true, order: 'create-first', oldRetained: true }, ...fields });
const REPAIR = "repair the record's physicalId to new (cdkd state show) and re-run cdkd rollback";
const NAME_THE_RIGHT_ONE =
  'the re-run deletes whatever resource the repaired record names as the new copy, so name the right one';
const NOTHING_PROVES =
  'nothing proves which resource is the new copy, so it is not deleted and no repair makes the re-run succeed; check both resources by hand';

describe('re-adopting a retained old resource, which only the journal names (spec 000)', () => {
  ruleTable<Row>(
    [
      {
        rule: 'The old resource left alive by UpdateReplacePolicy: Retain is re-adopted',
        op: retainedOld(),
        context: context({ record: record('new') }),
        expected: { kind: 'reverse-replace', old: 'retained', current: { physicalId: 'new' } },
      },
      {
        rule: "When the journal holds no id for the new resource, the record's resource is re-adopted as the new copy",
        op: retainedOld({ physicalId: undefined }),
        context: context({ record: record('new') }),
        expected: { kind: 'reverse-replace', old: 'retained', current: { physicalId: 'new' } },
      },
      ...[record(''), undefined].map((held) => ({
        rule: `When the journal holds a usable id for the replacement's new resource, the message prints it: repair the record to that id and re-run the rollback (state ${held ? 'record with physicalId ""' : 'holds no record'})`,
        op: retainedOld(),
        context: context(held ? { record: held } : {}),
        expected: { kind: 'refuse', code: 'ROLLBACK_UNADDRESSABLE', reason: expect.stringContaining(REPAIR) },
      })),
      {
        rule: 'When the journal holds none, the re-run deletes whatever resource the repaired record names as the new copy, so name the right one',
        op: retainedOld({ physicalId: undefined }),
        context: context({ record: record('  ') }),
        expected: {
          kind: 'refuse',
          code: 'ROLLBACK_UNADDRESSABLE',
          reason: expect.stringContaining(NAME_THE_RIGHT_ONE),
        },
      },
      ...(['', '   ', 42, null] as unknown[]).flatMap((physicalId) =>
        ['', 'new'].map((held) => ({
          rule: `When the journal's id is present but unusable too (${JSON.stringify(physicalId)}, state's ${JSON.stringify(held)}), nothing proves which resource is the new copy: not deleted, no repair makes the re-run succeed`,
          op: retainedOld({ physicalId }),
          context: context({ record: record(held) }),
          expected: {
            kind: 'refuse',
            code: 'ROLLBACK_UNADDRESSABLE',
            reason: expect.stringContaining(NOTHING_PROVES),
          },
        })),
      ),
      {
        rule: 'When the record holds a different id, nothing proves which resource is the new copy: not deleted, no repair makes the re-run succeed',
        op: retainedOld(),
        context: context({ record: record('other') }),
        expected: {
          kind: 'refuse',
          code: 'ROLLBACK_UNADDRESSABLE',
          reason: expect.stringContaining(NOTHING_PROVES),
        },
      },
    ],
    check,
  );
});

describe('completed operations, unaddressable ids, orphans (spec 000)', () => {
  ruleTable<Row>(
    [
      ...(['', '   ', 42, undefined] as unknown[]).map((physicalId) => ({
        rule: `An operation cdkd cannot address (journaled physicalId ${JSON.stringify(physicalId)}) is skipped with a warning, and the journal keeps its entry`,
        op: op(physicalId === undefined ? {} : { physicalId }),
        context: context({ record: record('q') }),
        expected: { kind: 'skip', warn: true, keep: true },
      })),
      {
        rule: "A nested stack's record is exempt, since its child is found by name: its CREATE is rolled back though the id is unusable",
        op: op({ type: 'AWS::CloudFormation::Stack', physicalId: '' }),
        context: context({ record: record('', { type: 'AWS::CloudFormation::Stack' }) }),
        expected: { kind: 'delete', retain: false },
      },
      {
        rule: "A nested stack's record is exempt unless it is recorded on Cloud Control",
        op: op({ type: 'AWS::CloudFormation::Stack', physicalId: '' }),
        context: context({
          record: record('', { type: 'AWS::CloudFormation::Stack', provisionedBy: 'cc-api' }),
        }),
        expected: { kind: 'skip', warn: true },
      },
      {
        rule: 'A completed CREATE is deleted while state records what it made (DeletionPolicy Delete)',
        op: op({ physicalId: 'q' }),
        context: context({ record: record('q') }),
        expected: { kind: 'delete', retain: false },
      },
      {
        rule: 'RetainExceptOnCreate deletes a rolled-back create, as CloudFormation does',
        op: op({ physicalId: 'q', deletionPolicy: 'RetainExceptOnCreate' }),
        context: context({ record: record('q') }),
        expected: { kind: 'delete', retain: false },
      },
      {
        rule: 'An update applied in place is reverted in place even when it changed the physical id',
        op: op({
          action: 'update',
          before: record('q-1'),
          physicalId: 'q-2',
          previousPhysicalId: 'q-1',
          verdict: { replacement: false },
        }),
        context: context({ record: record('q-2') }),
        expected: { kind: 'revert' },
      },
      {
        rule: 'A completed UPDATE is reverted from state, which holds what it applied: the attempted properties are not carried',
        op: op({ action: 'update', before: record('q', { properties: { A: 1 } }), attempted: { A: 2 } }),
        context: context({ record: record('q', { properties: { A: 2 } }) }),
        expected: { kind: 'revert', current: { properties: { A: 2 } } },
        absent: ['attempted'],
      },
      {
        rule: 'A replacement whose old copy is still pending deletion is reversed by re-adopting it',
        op: replaced(),
        context: context({ record: record('new'), oldPending: true }),
        expected: { kind: 'reverse-replace', old: 'pending', order: 'create-first', keepNew: false },
      },
      {
        rule: 'A replacement that deleted the old resource first is reversed in that order too',
        op: replaced({ verdict: { replacement: true, order: 'delete-first', oldDeleted: true } }),
        context: context({ record: record('new') }),
        expected: { kind: 'reverse-replace', old: 'deleted', order: 'delete-first', mayFreeName: true },
      },
      {
        rule: 'Spec 001, "Reversing a replacement": re-creating the old copy of a type that holds data warns that it starts empty',
        op: replaced({ verdict: { replacement: true, order: 'delete-first', oldDeleted: true } }),
        context: context({ record: record('new'), holdsData: (type) => type === 'AWS::SQS::Queue' }),
        expected: { kind: 'reverse-replace', old: 'deleted', startsEmpty: true },
      },
      {
        rule: 'Spec 001: an old copy of a type that holds no data is re-created with no such warning',
        op: replaced({ verdict: { replacement: true, order: 'delete-first', oldDeleted: true } }),
        context: context({ record: record('new') }),
        expected: { kind: 'reverse-replace', old: 'deleted' },
        absent: ['startsEmpty'],
      },
      {
        rule: 'Spec 001: an old copy still alive (pending deletion) is re-adopted with its data, so no warning',
        op: replaced(),
        context: context({ record: record('new'), oldPending: true, holdsData: () => true }),
        expected: { kind: 'reverse-replace', old: 'pending' },
        absent: ['startsEmpty'],
      },
      {
        rule: 'Spec 001: "This does not apply under UpdateReplacePolicy: Retain, where the old resource was kept"',
        op: replaced({ verdict: { replacement: true, order: 'create-first', oldRetained: true } }),
        context: context({ record: record('new'), holdsData: () => true }),
        expected: { kind: 'reverse-replace', old: 'retained' },
        absent: ['startsEmpty'],
      },
      {
        rule: 'A new resource kept by UpdateReplacePolicy: Retain uses the create-first order and is kept',
        op: replaced({
          after: record('new', { updateReplacePolicy: 'Retain' }),
          verdict: { replacement: true, order: 'delete-first', oldDeleted: true },
        }),
        context: context({ record: record('new') }),
        expected: { kind: 'reverse-replace', order: 'create-first', keepNew: true },
      },
      ...['', '   '].map((physicalId) => ({
        rule: `A replacement whose new copy is kept (UpdateReplacePolicy: Retain) sends nothing by that id and is reverted as usual (state's physicalId ${JSON.stringify(physicalId)}; the journal's id is reported)`,
        op: replaced({ after: record('new', { updateReplacePolicy: 'Retain' }) }),
        context: context({ record: record(physicalId), oldPending: true }),
        expected: {
          kind: 'reverse-replace',
          old: 'pending',
          keepNew: true,
          current: { physicalId: 'new' },
        },
      })),
      {
        rule: 'A replacement whose new copy is kept (UpdateReplacePolicy: Retain) is reverted as usual even when the journal cannot address it either',
        op: replaced({ after: record('new', { updateReplacePolicy: 'Retain' }), physicalId: 42 }),
        context: context({ record: record('  ') }),
        expected: { kind: 'reverse-replace', old: 'deleted', keepNew: true },
      },
      {
        rule: 'A replacement whose new copy is not kept and state cannot address is skipped with a warning (exit 2), the journal keeping its entry',
        op: replaced(),
        context: context({ record: record(''), oldPending: true }),
        expected: { kind: 'skip', warn: true, keep: true, reason: expect.stringContaining('cannot address') },
      },
      {
        rule: 'A replacement whose journal records no id for the new copy: nothing shows the record is it, skipped with a warning',
        op: replaced({ physicalId: undefined }),
        context: context({ record: record('new'), oldPending: true }),
        expected: {
          kind: 'skip',
          warn: true,
          reason: expect.stringContaining(
            'the journal records no usable id for the new copy, so nothing shows that new is it',
          ),
        },
      },
      {
        rule: 'Old properties naming a resource the same deploy deleted: create-first, and no deleting the new copy to free a name',
        op: replaced({
          before: record('old', { properties: { RedrivePolicy: { deadLetterTargetArn: 'dlq-1' } } }),
          verdict: { replacement: true, order: 'delete-first', oldDeleted: true },
        }),
        context: context({ record: record('new'), replacedOrDeleted: new Map([['dlq-1', 'Dlq']]) }),
        expected: {
          kind: 'reverse-replace',
          order: 'create-first',
          mayFreeName: false,
          warnings: [expect.stringContaining('Dlq')],
        },
      },
      {
        rule: 'A Type change whose old type cannot be routed is (REFUSED): ROLLBACK_REPLACEMENT_UNROUTABLE',
        op: replaced({ before: record('old', { type: 'AWS::Old::Thing' }), previousType: 'AWS::Old::Thing' }),
        context: context({ record: record('new'), knownType: (type) => type !== 'AWS::Old::Thing' }),
        expected: { kind: 'refuse', code: 'ROLLBACK_REPLACEMENT_UNROUTABLE' },
      },
      {
        rule: 'A completed DELETE is not undone',
        op: op({ action: 'delete', physicalId: 'q' }),
        context: context(),
        expected: { kind: 'skip', warn: false },
      },
      {
        rule: '--orphan: completed operations of the named id are left as they are',
        op: op({ physicalId: 'q' }),
        context: context({ record: record('q'), orphaned: true }),
        expected: { kind: 'skip', warn: false },
      },
      {
        rule: 'A create still in flight that reading the cloud could not settle is skipped with a warning, and the journal keeps its entry (its resource may exist)',
        op: op({ status: 'in-flight', name: 'my-queue' }),
        context: context(),
        expected: {
          kind: 'skip',
          warn: true,
          keep: true,
          reason: expect.stringContaining('(under the name my-queue); the journal keeps the entry'),
        },
      },
      {
        rule: 'A delete-first replacement still in flight whose old copy is gone from state: the warning says a deploy creates it again',
        op: replaced({
          status: 'in-flight',
          verdict: { replacement: true, order: 'delete-first', oldDeleted: true },
        }),
        context: context(),
        expected: {
          kind: 'skip',
          warn: true,
          keep: true,
          reason:
            'was in flight when the deploy stopped, and cdkd cannot tell whether it made its resource; it deleted old first: it is gone and no longer in state; cdkd deploy creates it again; the journal keeps the entry: check by hand, then run cdkd rollback again, or pass --orphan Q to drop the entry and leave whatever it made',
        },
      },
      {
        rule: 'cdkd import marked the logical id: adopted by cdkd import after this deploy, left as it is',
        op: op({ physicalId: 'q' }),
        context: context({
          record: record('q'),
          importMark: { logicalId: 'Q', type: 'AWS::SQS::Queue', physicalId: 'q', at: 'now' },
        }),
        expected: {
          kind: 'skip',
          warn: false,
          reason: 'adopted by cdkd import after this deploy, left as it is',
        },
      },
    ],
    check,
  );
});
