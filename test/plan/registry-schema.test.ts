import { describe, expect, it } from 'vitest';
import { buildPlan, registryTypesToRead } from '../../src/plan/build-plan.js';
import type { OwnRuleLookup } from '../../src/resource-types/replacement-rules.js';
import {
  parseRegistrySchema,
  propertyVerdict,
  type PropertyVerdict,
  type RegistryAnswer,
} from '../../src/plan/registry-schema.js';
import type { PlannedOperation } from '../../src/plan/types.js';
import { allProviders, desired, recorded } from './helpers.js';

const QUEUE = 'AWS::SQS::Queue';
/** A type neither the bundled index nor the registry knows (a private registry type). */
const PRIVATE = 'Acme::Private::Widget';

function registrySchema(
  createOnly: string[],
  extra: { nested?: string[]; conditional?: string[] } = {},
): RegistryAnswer {
  return {
    kind: 'schema',
    schema: { createOnly, nested: extra.nested ?? [], conditional: extra.conditional ?? [], writeOnly: [] },
  };
}

const noOwnRules: OwnRuleLookup = () => undefined;
const queueInPlace: OwnRuleLookup = (type, property) =>
  type === QUEUE && property === 'QueueName' ? 'in-place' : undefined;

describe("a property's replacement verdict: own rule, registry, bundled index, or in place (spec 002)", () => {
  it.each<[string, string, string, RegistryAnswer | undefined, OwnRuleLookup | undefined, PropertyVerdict]>([
    [
      "cdkd's own rule (replace) outranks a registry schema that says in place",
      'AWS::DynamoDB::Table',
      'LocalSecondaryIndexes',
      registrySchema(['TableName']),
      undefined,
      { verdict: 'yes', nestedPaths: [], source: 'cdkd' },
    ],
    [
      "cdkd's own rule (in place) outranks a registry schema that says create-only",
      QUEUE,
      'QueueName',
      registrySchema(['QueueName']),
      queueInPlace,
      { verdict: 'no', nestedPaths: [], source: 'cdkd' },
    ],
    [
      'no own rule: the registry says create-only where the bundled index says in place',
      QUEUE,
      'VisibilityTimeout',
      registrySchema(['VisibilityTimeout']),
      noOwnRules,
      { verdict: 'yes', nestedPaths: [], source: 'registry' },
    ],
    [
      'no own rule: the registry says in place where the bundled index says create-only',
      QUEUE,
      'QueueName',
      registrySchema([]),
      noOwnRules,
      { verdict: 'no', nestedPaths: [], source: 'registry' },
    ],
    [
      'a type only the registry knows (newer than the bundled index): the registry decides',
      PRIVATE,
      'Size',
      registrySchema(['Size']),
      noOwnRules,
      { verdict: 'yes', nestedPaths: [], source: 'registry' },
    ],
    [
      'the registry marks the property conditionally create-only',
      QUEUE,
      'RedrivePolicy',
      registrySchema([], { conditional: ['RedrivePolicy'] }),
      noOwnRules,
      { verdict: 'maybe', nestedPaths: [], source: 'registry' },
    ],
    [
      "the registry's nested create-only paths below the property",
      QUEUE,
      'RedrivePolicy',
      registrySchema([], { nested: ['RedrivePolicy.deadLetterTargetArn', 'Tags.*.Key'] }),
      noOwnRules,
      { verdict: 'no', nestedPaths: ['deadLetterTargetArn'], source: 'registry' },
    ],
    [
      'the registry was not asked: the bundled index decides',
      QUEUE,
      'QueueName',
      undefined,
      noOwnRules,
      { verdict: 'yes', nestedPaths: [], source: 'bundled' },
    ],
    [
      'DescribeType denied (unavailable): the bundled index decides',
      QUEUE,
      'QueueName',
      { kind: 'unavailable' },
      noOwnRules,
      { verdict: 'yes', nestedPaths: [], source: 'bundled' },
    ],
    [
      'the registry does not know a type the bundled index knows: the bundled index decides',
      QUEUE,
      'VisibilityTimeout',
      { kind: 'type-not-found' },
      noOwnRules,
      { verdict: 'no', nestedPaths: [], source: 'bundled' },
    ],
    [
      'DescribeType denied and no bundled schema: in place',
      PRIVATE,
      'Size',
      { kind: 'unavailable' },
      noOwnRules,
      { verdict: 'no', nestedPaths: [], source: 'none' },
    ],
    [
      'a type in neither the registry nor the bundled index: in place',
      PRIVATE,
      'Size',
      { kind: 'type-not-found' },
      noOwnRules,
      { verdict: 'no', nestedPaths: [], source: 'none' },
    ],
  ])('%s', (_row, type, property, registry, ownRule, want) => {
    expect(propertyVerdict(type, property, registry, ownRule)).toEqual(want);
  });
});

describe('the plan reads the verdict it is given', () => {
  function planOne(
    type: string,
    had: Record<string, unknown>,
    want: Record<string, unknown>,
    registry?: RegistryAnswer,
  ): PlannedOperation {
    const plan = buildPlan(
      { desired: [desired('R', type, want)], recorded: { R: recorded(type, had) } },
      { ...allProviders, ...(registry && { registry: new Map([[type, registry]]) }) },
    );
    return plan.operations[0] as PlannedOperation;
  }

  it('a property the registry marks create-only replaces, and the reason names the registry', () => {
    const op = planOne(
      QUEUE,
      { VisibilityTimeout: 1 },
      { VisibilityTimeout: 2 },
      registrySchema(['VisibilityTimeout']),
    );
    expect(op.kind).toBe('replace');
    expect(op.reason).toBe(
      'changed: VisibilityTimeout; VisibilityTimeout requires replacement (registry schema)',
    );
    expect(op.replacementCauses).toEqual([
      { kind: 'property', property: 'VisibilityTimeout', source: 'registry' },
    ]);
  });

  it('a nested create-only path from the registry replaces only when that path changed', () => {
    const registry = registrySchema([], { nested: ['RedrivePolicy.deadLetterTargetArn'] });
    const had = { RedrivePolicy: { deadLetterTargetArn: 'a', maxReceiveCount: 1 } };
    expect(
      planOne(QUEUE, had, { RedrivePolicy: { deadLetterTargetArn: 'a', maxReceiveCount: 2 } }, registry).kind,
    ).toBe('update');
    const moved = planOne(
      QUEUE,
      had,
      { RedrivePolicy: { deadLetterTargetArn: 'b', maxReceiveCount: 1 } },
      registry,
    );
    expect(moved.kind).toBe('replace');
    expect(moved.reason).toContain(
      'RedrivePolicy.deadLetterTargetArn requires replacement (registry schema)',
    );
  });

  it("cdkd's own rule replaces and says so", () => {
    const op = planOne(
      'AWS::DynamoDB::Table',
      { LocalSecondaryIndexes: [] },
      { LocalSecondaryIndexes: [{ IndexName: 'i' }] },
      registrySchema([]),
    );
    expect(op.kind).toBe('replace');
    expect(op.reason).toContain('LocalSecondaryIndexes requires replacement (cdkd rule)');
  });

  it('a type only the registry knows is replaced on its verdict, with no note', () => {
    const op = planOne(PRIVATE, { Size: 1 }, { Size: 2 }, registrySchema(['Size']));
    expect(op.kind).toBe('replace');
    expect(op.notes).toEqual([]);
  });

  it('a type in neither the registry nor the bundled index is updated in place, with a note', () => {
    const op = planOne(PRIVATE, { Size: 1 }, { Size: 2 }, { kind: 'type-not-found' });
    expect(op.kind).toBe('update');
    expect(op.notes).toEqual([
      `neither the CloudFormation registry nor the bundled schema index knows ${PRIVATE}: changes are planned in place`,
    ]);
  });

  it('denied and unknown to the bundled index: in place, with the bundled note', () => {
    const op = planOne(PRIVATE, { Size: 1 }, { Size: 2 }, { kind: 'unavailable' });
    expect(op.kind).toBe('update');
    expect(op.notes).toEqual([`no bundled schema for ${PRIVATE}: changes are planned in place`]);
  });
});

describe('which types the registry is asked about before planning', () => {
  it.each<[string, ReturnType<typeof desired>[], Record<string, ReturnType<typeof recorded>>, string[]]>([
    ['a new resource asks nothing', [desired('Q', QUEUE, { QueueName: 'a' })], {}, []],
    [
      'an unchanged resource asks nothing (a no-op deploy makes no call)',
      [desired('Q', QUEUE, { QueueName: 'a' })],
      { Q: recorded(QUEUE, { QueueName: 'a' }) },
      [],
    ],
    [
      'a legacy record without a hash is a no-op and asks nothing',
      [desired('Q', QUEUE, { QueueName: 'b' })],
      { Q: recorded(QUEUE, { QueueName: 'a' }, { propertyHash: '' }) },
      [],
    ],
    [
      'a Type change replaces whatever the schema says, and asks nothing',
      [desired('Q', 'AWS::SNS::Topic', { TopicName: 'a' })],
      { Q: recorded(QUEUE, { QueueName: 'a' }) },
      [],
    ],
    [
      'a change that only own rules decide asks nothing',
      [desired('T', 'AWS::DynamoDB::Table', { LocalSecondaryIndexes: [{ IndexName: 'i' }] })],
      { T: recorded('AWS::DynamoDB::Table', { LocalSecondaryIndexes: [] }) },
      [],
    ],
    [
      'a custom resource asks nothing: the registry never holds a Custom:: name',
      [desired('C', 'Custom::Thing', { ServiceToken: 'arn', Size: 2 })],
      { C: recorded('Custom::Thing', { ServiceToken: 'arn', Size: 1 }) },
      [],
    ],
    [
      'changed resources ask once per type, sorted',
      [
        desired('Q1', QUEUE, { VisibilityTimeout: 2 }),
        desired('Q2', QUEUE, { VisibilityTimeout: 3 }),
        desired('T', 'AWS::DynamoDB::Table', {
          LocalSecondaryIndexes: [{ IndexName: 'i' }],
          TableClass: 'STANDARD',
        }),
        desired('W', PRIVATE, { Size: 2 }),
      ],
      {
        Q1: recorded(QUEUE, { VisibilityTimeout: 1 }),
        Q2: recorded(QUEUE, { VisibilityTimeout: 1 }),
        T: recorded('AWS::DynamoDB::Table', { LocalSecondaryIndexes: [] }),
        W: recorded(PRIVATE, { Size: 1 }),
      },
      ['AWS::DynamoDB::Table', QUEUE, PRIVATE],
    ],
  ])('%s', (_row, want, had, types) => {
    expect(registryTypesToRead({ desired: want, recorded: had })).toEqual(types);
  });
});

describe("reading a registry schema's create-only properties", () => {
  it('splits top-level, nested and conditional pointers', () => {
    const document = JSON.stringify({
      typeName: 'AWS::Demo::Thing',
      properties: { Name: {}, Config: {}, Items: {}, Mode: {} },
      createOnlyProperties: [
        '/properties/Name',
        '/properties/Config/Inner/Key',
        '/properties/Items/*/Id',
        '/properties/Name/Ignored',
        '/properties/Odd~1Name',
      ],
      conditionalCreateOnlyProperties: ['/properties/Mode', '/properties/Config/Flag'],
      writeOnlyProperties: ['/properties/Code', '/properties/Code/ZipFile', '/properties/Items/*/Secret'],
    });
    expect(parseRegistrySchema(document)).toEqual({
      createOnly: ['Name', 'Odd/Name'],
      nested: ['Config.Inner.Key', 'Items.*.Id'],
      conditional: ['Config', 'Mode'],
      writeOnly: ['Code', 'Code.ZipFile', 'Items.*.Secret'],
    });
  });

  it('a schema without create-only properties has none', () => {
    expect(parseRegistrySchema(JSON.stringify({ properties: { A: {} } }))).toEqual({
      createOnly: [],
      nested: [],
      conditional: [],
      writeOnly: [],
    });
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '[]'],
    ['no properties', JSON.stringify({ typeName: 'AWS::Demo::Thing' })],
  ])('%s is not a schema', (_row, document) => {
    expect(parseRegistrySchema(document)).toBeUndefined();
  });
});
