import { describe, expect, it } from 'vitest';
import { keptEntries, lockVerdict, untrackedInJournal } from '../../src/engine/scrub/scrub-rules.js';
import type { JournalDocument, JournalOperation } from '../../src/state/documents/journal-document.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';

const now = new Date('2026-01-01T12:00:00Z');

describe('lockVerdict (spec 003, "The lock record")', () => {
  it.each([
    ['past expiresAt', { expiresAt: '2026-01-01T11:59:00Z' }, 'stale'],
    ['before expiresAt', { expiresAt: '2026-01-01T12:10:00Z' }, 'held'],
    ['no expiresAt (truncated)', {}, 'stale'],
  ])('%s -> %s', (_case, extra, expected) => {
    expect(lockVerdict({ version: 1, owner: 'me', timestamp: '', ...extra }, now)).toBe(expected);
  });
  it('a file that is not a lock is unreadable', () => {
    expect(lockVerdict(undefined, now)).toBe('unreadable');
  });
});

describe('untrackedInJournal: what a journal names that no state records', () => {
  const op = (extra: Partial<JournalOperation>): JournalOperation => ({
    seq: 0,
    logicalId: 'Q',
    action: 'create',
    type: 'AWS::SQS::Queue',
    status: 'completed',
    ...extra,
  });
  const journal = (operations: JournalOperation[]): JournalDocument => ({
    version: 1,
    stackName: 'S',
    region: 'us-east-1',
    segments: [
      {
        runId: 'r',
        startedAt: '',
        cdkdVersion: '0',
        flags: {},
        previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
        status: 'interrupted',
        operations,
        importMarks: [],
      },
    ],
  });
  const stateHolding = (physicalId: string) => {
    const state = emptyStateDocument('S', 'us-east-1');
    const record: ResourceRecord = {
      type: 'AWS::SQS::Queue',
      physicalId,
      properties: {},
      attributes: {},
      provisionedBy: 'sdk',
      dependencies: [],
    };
    state.resources.Q = record;
    return state;
  };
  const made = { physicalId: 'q-2', provisionedBy: 'sdk' as const, properties: {} };
  it.each([
    ['a completed create state records', [op({ physicalId: 'q-1' })], stateHolding('q-1'), []],
    ['a completed create no state records', [op({ physicalId: 'q-1' })], undefined, ['Q (q-1)']],
    ['a create left in flight', [op({ status: 'in-flight' })], undefined, ['Q (in flight)']],
    [
      'a create left in flight whose name the journal records',
      [op({ status: 'in-flight', name: 'my-queue' })],
      undefined,
      ['Q (in flight, my-queue)'],
    ],
    [
      'a create left in flight whose record reached state',
      [op({ status: 'in-flight' })],
      stateHolding('q-1'),
      [],
    ],
    [
      'a replacement left in flight, state still on the old copy',
      [op({ action: 'replace', status: 'in-flight', before: stateHolding('q-1').resources.Q! })],
      stateHolding('q-1'),
      ['Q (in flight)'],
    ],
    [
      'a replacement left in flight whose new record reached state',
      [op({ action: 'replace', status: 'in-flight', before: stateHolding('q-1').resources.Q! })],
      stateHolding('q-2'),
      [],
    ],
    [
      'a failed create that made its resource',
      [op({ status: 'failed', made })],
      stateHolding('q-1'),
      ['Q (q-2)'],
    ],
    ['a failed create that made nothing', [op({ status: 'failed' })], undefined, []],
    ['an update', [op({ action: 'update', physicalId: 'q-9' })], undefined, []],
  ])('%s', (_case, operations, state, expected) => {
    expect(untrackedInJournal(journal(operations), state)).toEqual(expected);
  });

  // What `cdkd scrub` lists as left for a person once a rollback settled what it could (issue 25 item 11).
  it.each<[string, JournalOperation, string]>([
    [
      'a create in flight, with its name',
      op({ status: 'in-flight', name: 'my-queue' }),
      'Q (AWS::SQS::Queue, in flight, my-queue)',
    ],
    ['a create in flight, no name known', op({ status: 'in-flight' }), 'Q (AWS::SQS::Queue, in flight)'],
    ['a torn completed create', op({ physicalId: 42 }), 'Q (AWS::SQS::Queue, completed create)'],
    [
      'a failed create that made its resource',
      op({ status: 'failed', made }),
      'Q (AWS::SQS::Queue, failed create, q-2)',
    ],
  ])('keptEntries: %s', (_case, entry, line) => {
    expect(keptEntries(journal([entry]))).toEqual([line]);
  });
});
