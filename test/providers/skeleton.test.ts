import { describe, expect, it } from 'vitest';
import { SdkProvider, type ProviderDescription } from '../../src/providers/skeleton.js';
import type { CreateResult, UpdateResult } from '../../src/providers/provider.js';

/** A provider that is its description: the calls are never reached here. */
class Described extends SdkProvider {
  constructor(readonly description: ProviderDescription) {
    super();
  }
  create(): Promise<CreateResult> {
    throw new Error('not called');
  }
  update(): Promise<UpdateResult> {
    throw new Error('not called');
  }
  delete(): Promise<void> {
    throw new Error('not called');
  }
  read(): Promise<undefined> {
    throw new Error('not called');
  }
}

const QUEUE = 'AWS::SQS::Queue';
const TABLE = 'AWS::DynamoDB::Table';

describe('the SDK provider skeleton', () => {
  it('is an SDK provider for exactly the type described', () => {
    const provider = new Described({ type: QUEUE, covered: [] });
    expect(provider.kind).toBe('sdk');
    expect(provider.handles(QUEUE)).toBe(true);
    expect(provider.handles('AWS::SNS::Topic')).toBe(false);
  });

  it.each<[string, ProviderDescription, string, string[], boolean]>([
    [
      'the schema: a create-only property replaces',
      { type: QUEUE, covered: [] },
      QUEUE,
      ['QueueName'],
      false,
    ],
    ['the schema: another property is in place', { type: QUEUE, covered: [] }, QUEUE, ['DelaySeconds'], true],
    [
      'the schema alone misses cdkd’s own rule',
      { type: TABLE, covered: [] },
      TABLE,
      ['LocalSecondaryIndexes'],
      true,
    ],
    [
      'schema and own rules: cdkd’s own rule replaces',
      { type: TABLE, covered: [], replaces: 'schema-and-own-rules' },
      TABLE,
      ['LocalSecondaryIndexes'],
      false,
    ],
    [
      'schema and own rules: the schema still replaces',
      { type: TABLE, covered: [], replaces: 'schema-and-own-rules' },
      TABLE,
      ['TableName'],
      false,
    ],
    [
      'listed create-only properties replace',
      { type: QUEUE, covered: [], replaces: ['A'] },
      QUEUE,
      ['B', 'A'],
      false,
    ],
    [
      'a listed set replaces too',
      { type: QUEUE, covered: [], replaces: new Set(['A']) },
      QUEUE,
      ['A'],
      false,
    ],
    [
      'listed: the schema’s create-only is in place',
      { type: QUEUE, covered: [], replaces: [] },
      QUEUE,
      ['QueueName'],
      true,
    ],
  ])('canUpdateInPlace, %s', (_name, description, type, changed, inPlace) => {
    expect(new Described(description).canUpdateInPlace(type, changed)).toBe(inPlace);
  });

  it.each<[string, ProviderDescription, Record<string, unknown>, string[]]>([
    ['a list', { type: QUEUE, covered: ['A'] }, { A: 1, B: 2 }, ['B']],
    ['a set', { type: QUEUE, covered: new Set(['A', 'B']) }, { A: 1, B: 2 }, []],
    [
      'covered but not sendable as given',
      { type: QUEUE, covered: ['A', 'B'], alsoUncovered: (p) => (p.B === 'odd' ? ['B'] : []) },
      { A: 1, B: 'odd', C: 3 },
      ['C', 'B'],
    ],
  ])('uncoveredProperties from %s', (_name, description, properties, expected) => {
    expect(new Described(description).uncoveredProperties(QUEUE, properties)).toEqual(expected);
  });

  it('answers the write-only paths described, none when none are', () => {
    expect(
      new Described({ type: QUEUE, covered: [], writeOnly: ['Code.ZipFile'] }).writeOnlyProperties(),
    ).toEqual(['Code.ZipFile']);
    expect(new Described({ type: QUEUE, covered: [] }).writeOnlyProperties()).toEqual([]);
  });
});
