import { describe, expect, it } from 'vitest';
import { unhandledReason, type TypeFacts, type UnhandledReason } from '../../src/providers/handled-types.js';
import type { JsonObject, Provider, ProviderKind } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import {
  asSent,
  decideRoute,
  moveLine,
  preferredDrops,
  routeAnnotation,
  type PreferSdkRoute,
  type RouteFacts,
  type Route,
} from '../../src/providers/routing.js';

describe('decideRoute (spec 003, "Routing")', () => {
  const base: RouteFacts = {
    hasSdkProvider: true,
    uncoveredDesired: [],
    uncoveredRecorded: [],
    pinCcApi: false,
  };
  it.each<[string, Partial<RouteFacts>, Route]>([
    [
      'no SDK provider: Cloud Control',
      { hasSdkProvider: false },
      { provisionedBy: 'cc-api', reason: 'no-sdk-provider' },
    ],
    ['a new resource the SDK provider covers', {}, { provisionedBy: 'sdk', reason: 'sdk-provider' }],
    [
      'a property the SDK provider would drop',
      { uncoveredDesired: ['EvaluationWindow'] },
      { provisionedBy: 'cc-api', reason: 'uncovered-property', properties: ['EvaluationWindow'] },
    ],
    [
      'a recorded sdk resource gaining a dropped property moves to Cloud Control',
      { recordedBy: 'sdk', uncoveredDesired: ['EvaluationWindow'] },
      { provisionedBy: 'cc-api', reason: 'uncovered-property', properties: ['EvaluationWindow'] },
    ],
    [
      'recorded cc-api stays, though the SDK now covers it',
      { recordedBy: 'cc-api' },
      { provisionedBy: 'cc-api', reason: 'sticky' },
    ],
    [
      'sdk-coverage: returns when both bags are clean',
      { recordedBy: 'cc-api', exemption: 'sdk-coverage' },
      { provisionedBy: 'sdk', reason: 'returning-to-sdk' },
    ],
    [
      'sdk-coverage: --pin-cc-api declines the return',
      { recordedBy: 'cc-api', exemption: 'sdk-coverage', pinCcApi: true },
      { provisionedBy: 'cc-api', reason: 'sticky' },
    ],
    [
      'sdk-coverage: the record still holds a dropped property (the removal deploy)',
      { recordedBy: 'cc-api', exemption: 'sdk-coverage', uncoveredRecorded: ['P'] },
      { provisionedBy: 'cc-api', reason: 'sticky' },
    ],
    [
      'sdk-coverage: the desired state holds a dropped property',
      { recordedBy: 'cc-api', exemption: 'sdk-coverage', uncoveredDesired: ['P'] },
      { provisionedBy: 'cc-api', reason: 'sticky' },
    ],
    [
      'sdk-coverage: no desired state (a delete) never flips',
      { recordedBy: 'cc-api', exemption: 'sdk-coverage', uncoveredDesired: undefined },
      { provisionedBy: 'cc-api', reason: 'sticky' },
    ],
    [
      'sdk-coverage: an unknown record never flips',
      { recordedBy: 'cc-api', exemption: 'sdk-coverage', uncoveredRecorded: undefined },
      { provisionedBy: 'cc-api', reason: 'sticky' },
    ],
    [
      'cc-cannot-manage: moves for correctness and ignores --pin-cc-api (the provider drops P)',
      { recordedBy: 'cc-api', exemption: 'cc-cannot-manage', pinCcApi: true, uncoveredDesired: ['P'] },
      { provisionedBy: 'sdk', reason: 'cc-cannot-manage', dropped: ['P'] },
    ],
    [
      'cc-cannot-manage: a new resource the SDK provider covers',
      { exemption: 'cc-cannot-manage' },
      { provisionedBy: 'sdk', reason: 'cc-cannot-manage' },
    ],
    [
      '--prefer-sdk-route names every dropped property: the SDK provider drops them',
      { uncoveredDesired: ['A', 'B'], preferredDrops: ['A', 'B'] },
      { provisionedBy: 'sdk', reason: 'prefer-sdk-route', dropped: ['A', 'B'] },
    ],
    [
      '--prefer-sdk-route names some: the others still go to Cloud Control, and the annotation names them',
      { recordedBy: 'sdk', uncoveredDesired: ['A', 'B'], preferredDrops: ['A'] },
      { provisionedBy: 'cc-api', reason: 'uncovered-property', properties: ['B'] },
    ],
    [
      '--prefer-sdk-route does not move a cc-api record back',
      { recordedBy: 'cc-api', uncoveredDesired: ['A'], preferredDrops: ['A'] },
      { provisionedBy: 'cc-api', reason: 'sticky' },
    ],
  ])('%s', (_, facts, route) => {
    expect(decideRoute({ ...base, ...facts })).toEqual(route);
  });

  it.each<[Route, ProviderKind | undefined, string | undefined]>([
    [
      { provisionedBy: 'cc-api', reason: 'uncovered-property', properties: ['A', 'B'] },
      'sdk',
      '[via CC API: A, B]',
    ],
    [{ provisionedBy: 'cc-api', reason: 'sticky' }, 'cc-api', '[via CC API: sticky]'],
    [{ provisionedBy: 'sdk', reason: 'returning-to-sdk' }, 'cc-api', '[returning to SDK provider]'],
    [{ provisionedBy: 'sdk', reason: 'sdk-provider' }, undefined, undefined],
    [{ provisionedBy: 'sdk', reason: 'prefer-sdk-route', dropped: ['A'] }, 'sdk', '[SDK provider drops: A]'],
    [
      { provisionedBy: 'sdk', reason: 'cc-cannot-manage' },
      'cc-api',
      '[moving to SDK provider: Cloud Control cannot manage this type]',
    ],
    [{ provisionedBy: 'sdk', reason: 'cc-cannot-manage' }, 'sdk', undefined],
    [{ provisionedBy: 'cc-api', reason: 'no-sdk-provider' }, undefined, undefined],
  ])('annotates %j', (route, recordedBy, annotation) => {
    expect(routeAnnotation(route, recordedBy)).toBe(annotation);
  });
});

describe('what the record holds after a drop, and the lines a move prints', () => {
  it.each<[string, string[] | undefined, JsonObject]>([
    ['nothing dropped', undefined, { ObjectLockEnabled: true, AccelerateConfiguration: {}, BucketName: 'b' }],
    [
      'a removable drop is left out, a create-only one kept',
      ['ObjectLockEnabled', 'AccelerateConfiguration'],
      { ObjectLockEnabled: true, BucketName: 'b' },
    ],
  ])('%s', (_, dropped, expected) => {
    const properties = { ObjectLockEnabled: true, AccelerateConfiguration: {}, BucketName: 'b' };
    expect(asSent('AWS::S3::Bucket', properties, dropped)).toEqual(expected);
  });

  it.each<[string, PreferSdkRoute | undefined, string[]]>([
    ['no flag', undefined, []],
    ['the whole run', 'all', ['A', 'B']],
    [
      'Type:Property pairs of this type only',
      [
        { type: 'T', property: 'B' },
        { type: 'U', property: 'A' },
      ],
      ['B'],
    ],
  ])('preferredDrops: %s', (_, prefer, expected) => {
    expect(preferredDrops(prefer, 'T', ['A', 'B'])).toEqual(expected);
  });

  it.each<[Route, ProviderKind | undefined, RegExp | undefined]>([
    [
      { provisionedBy: 'cc-api', reason: 'uncovered-property', properties: ['P'] },
      'sdk',
      /moved to Cloud Control in place: .* P$/,
    ],
    [{ provisionedBy: 'sdk', reason: 'returning-to-sdk' }, 'cc-api', /^returning to SDK provider/],
    [
      { provisionedBy: 'sdk', reason: 'cc-cannot-manage' },
      'cc-api',
      /for correctness: Cloud Control cannot manage T/,
    ],
    [{ provisionedBy: 'cc-api', reason: 'sticky' }, 'cc-api', undefined],
    [{ provisionedBy: 'cc-api', reason: 'uncovered-property', properties: ['P'] }, undefined, undefined],
  ])('moveLine %j from %s', (route, recordedBy, line) => {
    const text = moveLine(route, recordedBy, 'T');
    if (line) expect(text).toMatch(line);
    else expect(text).toBeUndefined();
  });
});

describe('unhandledReason', () => {
  const known: TypeFacts = { hasSdkProvider: false, known: true, primaryIdentifier: ['Id'] };
  it.each<[string, Partial<TypeFacts>, UnhandledReason | undefined]>([
    ['AWS::CDK::Metadata', {}, 'engine-skipped'],
    ['AWS::CloudFormation::Stack', {}, 'nested-stack'],
    ['AWS::CloudFormation::Stack', { hasSdkProvider: true }, 'nested-stack'],
    ['Custom::MyThing', { known: false }, 'unknown-type'],
    ['Custom::MyThing', { known: false, hasSdkProvider: true }, undefined],
    ['AWS::CloudFormation::CustomResource', { hasSdkProvider: true }, undefined],
    ['AWS::Nope::Thing', { known: false }, 'unknown-type'],
    ['AWS::OpsWorks::Stack', { primaryIdentifier: [] }, 'not-addressable'],
    ['AWS::SQS::Queue', {}, undefined],
    ['AWS::Made::Up', { known: false, hasSdkProvider: true }, undefined],
  ])('%s %j', (type, facts, reason) => {
    expect(unhandledReason(type, { ...known, ...facts })).toBe(reason);
  });
});

function fakeProvider(kind: ProviderKind, uncovered: string[] = []): Provider {
  return {
    kind,
    handles: () => true,
    canUpdateInPlace: (_type, changed) => !changed.includes('Immutable'),
    uncoveredProperties: (_type: string, properties: JsonObject) => uncovered.filter((p) => p in properties),
    create: () => Promise.reject(new Error('not used')),
    update: () => Promise.reject(new Error('not used')),
    delete: () => Promise.reject(new Error('not used')),
    read: () => Promise.reject(new Error('not used')),
  };
}

describe('ProviderRegistry', () => {
  const cc = { ...fakeProvider('cc-api'), canUpdateInPlace: () => true };
  const queues = fakeProvider('sdk', ['RedriveAllowPolicy']);
  const topics = fakeProvider('sdk');
  const registry = new ProviderRegistry(cc)
    .registerSdk('AWS::SQS::Queue', queues)
    .registerSdk('AWS::SNS::Topic', topics, { exemption: 'sdk-coverage' });

  it('can handle indexed, addressable types and the registered ones, nothing else', () => {
    expect(registry.canHandle('AWS::SQS::Queue')).toBe(true);
    expect(registry.canHandle('AWS::Logs::LogGroup')).toBe(true);
    expect(registry.unhandledReason('AWS::CDK::Metadata')).toBe('engine-skipped');
    expect(registry.unhandledReason('Custom::Thing')).toBe('unknown-type');
    expect(registry.unhandledReason('AWS::Serverless::Function')).toBe('not-addressable');
    expect(registry.unhandledReason('AWS::Nope::Thing')).toBe('unknown-type');
  });

  it('routes to the SDK provider, to Cloud Control for an uncovered property, and keeps cc-api sticky', () => {
    expect(registry.route({ type: 'AWS::SQS::Queue', properties: {} })).toMatchObject({
      provider: queues,
      provisionedBy: 'sdk',
    });
    expect(registry.route({ type: 'AWS::SQS::Queue', properties: { RedriveAllowPolicy: {} } })).toMatchObject(
      {
        provider: cc,
        reason: 'uncovered-property',
        properties: ['RedriveAllowPolicy'],
      },
    );
    expect(
      registry.route({
        type: 'AWS::SQS::Queue',
        properties: {},
        recordedProperties: {},
        recordedBy: 'cc-api',
      }),
    ).toMatchObject({
      provider: cc,
      reason: 'sticky',
    });
    expect(registry.route({ type: 'AWS::Logs::LogGroup', properties: {} })).toMatchObject({
      provider: cc,
      provisionedBy: 'cc-api',
    });
  });

  it('keeps the SDK route for the properties --prefer-sdk-route names, and says which it drops', () => {
    const request = { type: 'AWS::SQS::Queue', properties: { RedriveAllowPolicy: {} } };
    expect(registry.route({ ...request, preferSdkRoute: 'all' })).toMatchObject({
      provider: queues,
      reason: 'prefer-sdk-route',
      dropped: ['RedriveAllowPolicy'],
    });
    const named = [{ type: 'AWS::SQS::Queue', property: 'RedriveAllowPolicy' }];
    expect(registry.route({ ...request, preferSdkRoute: named })).toMatchObject({ provider: queues });
    const otherType = [{ type: 'AWS::SNS::Topic', property: 'RedriveAllowPolicy' }];
    expect(registry.route({ ...request, preferSdkRoute: otherType })).toMatchObject({ provider: cc });
    expect(registry.uncoveredBySdk('AWS::SQS::Queue', request.properties)).toEqual(['RedriveAllowPolicy']);
    expect(registry.uncoveredBySdk('AWS::Logs::LogGroup', request.properties)).toEqual([]);
  });

  it('returns an sdk-coverage type to the SDK provider unless pinned', () => {
    const request = {
      type: 'AWS::SNS::Topic',
      properties: {},
      recordedProperties: {},
      recordedBy: 'cc-api' as const,
    };
    expect(registry.route(request)).toMatchObject({ provider: topics, reason: 'returning-to-sdk' });
    expect(registry.route({ ...request, pinCcApi: true })).toMatchObject({ provider: cc, reason: 'sticky' });
  });

  it('serves deletes and reads from the recorded provider, and refuses an sdk record it cannot serve', () => {
    expect(registry.providerFor('AWS::SQS::Queue', 'cc-api')).toBe(cc);
    expect(registry.providerFor('AWS::SQS::Queue', 'sdk')).toBe(queues);
    expect(() => registry.providerFor('AWS::Logs::LogGroup', 'sdk')).toThrow(/No SDK provider is registered/);
  });

  it('asks the provider that would apply the change whether it can update in place', () => {
    expect(registry.providerCanUpdate('AWS::SQS::Queue', ['Immutable'])).toBe(false);
    expect(registry.providerCanUpdate('AWS::SQS::Queue', ['Immutable'], 'cc-api')).toBe(true);
    expect(registry.providerCanUpdate('AWS::SQS::Queue', ['VisibilityTimeout'])).toBe(true);
  });

  it('serves a family of types (custom resources) from the provider that handles them, never Cloud Control', () => {
    const customs = { ...fakeProvider('sdk'), handles: (type: string) => type.startsWith('Custom::') };
    const withFamily = new ProviderRegistry(cc)
      .registerSdk('AWS::SQS::Queue', queues)
      .registerSdkFamily(customs);
    expect(withFamily.canHandle('Custom::Anything')).toBe(true);
    expect(withFamily.route({ type: 'Custom::Anything', properties: {} })).toMatchObject({
      provider: customs,
      provisionedBy: 'sdk',
    });
    expect(withFamily.providerFor('Custom::Anything', 'sdk')).toBe(customs);
    expect(withFamily.route({ type: 'AWS::SQS::Queue', properties: {} }).provider).toBe(queues);
    expect(withFamily.canHandle('AWS::Nope::Thing')).toBe(false);
  });
});
