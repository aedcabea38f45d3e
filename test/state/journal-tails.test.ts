import { describe, expect, it } from 'vitest';
import type {
  JournalDocument,
  JournalOperation,
  JournalTail,
} from '../../src/state/documents/journal-document.js';
import { applyTails, newerTailKeys, tailGenerationOf, tailKey } from '../../src/state/journal-tails.js';

const op = (
  seq: number,
  status: JournalOperation['status'],
  extra: Partial<JournalOperation> = {},
): JournalOperation => ({
  seq,
  logicalId: `R${seq}`,
  action: 'create',
  type: 'AWS::SQS::Queue',
  status,
  ...extra,
});

function documentWith(operations: JournalOperation[]): JournalDocument {
  return {
    version: 1,
    stackName: 'S',
    region: 'us-east-1',
    writer: 'w1',
    generation: 5,
    segments: [
      {
        runId: 'run-1',
        startedAt: '2026-12-01T00:00:00.000Z',
        cdkdVersion: 'test',
        flags: {},
        previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
        status: 'running',
        operations,
        importMarks: [],
      },
    ],
  };
}

const tail = (
  generation: number,
  operations: JournalOperation[],
  extra: Partial<JournalTail> = {},
): JournalTail => ({
  version: 1,
  writer: 'w1',
  generation,
  runId: 'run-1',
  operations,
  ...extra,
});

const view = (document: JournalDocument) =>
  document.segments[0]!.operations.map(
    (o) => `${o.logicalId}:${o.status}${o.acceptedRequest ? `:${o.acceptedRequest}` : ''}`,
  );

describe('applying tails to the journal document (one case per rule)', () => {
  const cases: Array<{ rule: string; tails: JournalTail[]; expected: string[] }> = [
    { rule: 'no tails: the document as stored', tails: [], expected: ['R0:in-flight'] },
    {
      rule: "a newer tail of the document's writer adds an operation",
      tails: [tail(6, [op(1, 'in-flight')])],
      expected: ['R0:in-flight', 'R1:in-flight'],
    },
    {
      rule: "a newer tail of the document's writer replaces an operation's record",
      tails: [tail(6, [op(0, 'in-flight', { acceptedRequest: 'req' })])],
      expected: ['R0:in-flight:req'],
    },
    {
      rule: 'a tail no newer than the document is ignored (the document holds its change)',
      tails: [tail(5, [op(0, 'failed')]), tail(4, [op(1, 'in-flight')])],
      expected: ['R0:in-flight'],
    },
    {
      rule: "another writer's tail is ignored, however new (it landed after another process stored the document)",
      tails: [tail(99, [op(1, 'in-flight')], { writer: 'w0' })],
      expected: ['R0:in-flight'],
    },
    {
      rule: 'of two tails for one operation the newer decides, in whatever order they are read',
      tails: [tail(8, [op(1, 'failed')]), tail(7, [op(1, 'in-flight')])],
      expected: ['R0:in-flight', 'R1:failed'],
    },
    {
      rule: 'a tail of a run the document no longer holds is ignored',
      tails: [tail(6, [op(1, 'in-flight')], { runId: 'run-gone' })],
      expected: ['R0:in-flight'],
    },
    {
      rule: 'operations a tail adds take their place by seq',
      tails: [tail(7, [op(3, 'in-flight')]), tail(6, [op(2, 'in-flight'), op(1, 'in-flight')])],
      expected: ['R0:in-flight', 'R1:in-flight', 'R2:in-flight', 'R3:in-flight'],
    },
  ];

  it.each(cases)('$rule', ({ tails, expected }) => {
    expect(view(applyTails(documentWith([op(0, 'in-flight')]), tails))).toEqual(expected);
  });

  it('a document no writer stamped takes no tail', () => {
    const document = { ...documentWith([op(0, 'in-flight')]), writer: undefined };
    expect(view(applyTails(document, [tail(6, [op(1, 'in-flight')])]))).toEqual(['R0:in-flight']);
  });

  it('the result carries the newest generation applied, so a later writer of it supersedes those tails', () => {
    expect(applyTails(documentWith([op(0, 'in-flight')]), [tail(9, [op(1, 'in-flight')])]).generation).toBe(
      9,
    );
  });
});

describe('tail keys', () => {
  it('name the writer and the generation, and only newer ones are read', () => {
    const keys = [1, 6, 12].map((generation) => tailKey('p/S/us-east-1/rollback-journal/', 'w1', generation));
    expect(keys[1]).toBe('p/S/us-east-1/rollback-journal/w1/0000000006.json');
    expect(keys.map(tailGenerationOf)).toEqual([1, 6, 12]);
    expect(newerTailKeys(keys, 5)).toEqual(keys.slice(1));
    expect(newerTailKeys(keys, undefined)).toEqual(keys);
  });
});
