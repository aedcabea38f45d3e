import { describe, expect, it } from 'vitest';
import { journaledIds, orphanReaders } from '../../src/engine/scrub/orphan-rules.js';
import type { JournalDocument } from '../../src/state/documents/journal-document.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';

const record = (dependencies: string[] = []): ResourceRecord => ({
  type: 'AWS::SQS::Queue',
  physicalId: 'x',
  properties: {},
  attributes: {},
  provisionedBy: 'sdk',
  dependencies,
});

describe('orphanReaders: who still references what would be orphaned', () => {
  const resources = { A: record(), B: record(['A']), C: record(['B']), D: record() };
  it.each([
    ['a resource nothing reads', ['D'], new Map(), []],
    ['a resource a state record reads', ['A'], new Map(), [{ logicalId: 'A', readers: ['B'] }]],
    ['a reader orphaned with what it reads', ['A', 'B'], new Map(), [{ logicalId: 'B', readers: ['C'] }]],
    ['the whole chain together', ['A', 'B', 'C'], new Map(), []],
    [
      'a reader only the template knows',
      ['D'],
      new Map([['D', ['A']]]),
      [{ logicalId: 'D', readers: ['A'] }],
    ],
    ['a template reader not in state', ['D'], new Map([['D', ['New']]]), []],
  ])('%s', (_case, orphaned, templateReaders, expected) => {
    expect(orphanReaders(resources, orphaned, templateReaders)).toEqual(expected);
  });
});

describe('journaledIds: what a rollback journal still acts on', () => {
  const journal = (ids: string[]): JournalDocument => ({
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
        status: 'failed',
        operations: ids.map((logicalId, seq) => ({
          seq,
          logicalId,
          action: 'create',
          type: 'AWS::SQS::Queue',
          status: 'completed',
        })),
        importMarks: [],
      },
    ],
  });
  it.each([
    ['no journal', undefined, ['A'], []],
    ['a journal on other ids', journal(['B']), ['A'], []],
    ['a journal on the id', journal(['A', 'B']), ['A', 'C'], ['A']],
  ])('%s', (_case, document, orphaned, expected) => {
    expect(journaledIds(document, orphaned)).toEqual(expected);
  });
});
