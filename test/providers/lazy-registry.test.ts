import { describe, expect, it } from 'vitest';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { Provider, ProviderKind } from '../../src/providers/provider.js';
import { ProviderRegistry, type SdkRegistrar } from '../../src/providers/registry.js';
import { registerSdkProviders, SDK_PROVIDER_TYPES } from '../../src/providers/sdk-providers.js';

function fakeProvider(kind: ProviderKind, uncovered: string[] = []): Provider {
  const fail = () => Promise.reject(new Error('not used'));
  return {
    kind,
    handles: () => true,
    canUpdateInPlace: (_type, changed) => !changed.includes('Immutable'),
    uncoveredProperties: (_type, properties) => uncovered.filter((p) => p in properties),
    create: fail,
    update: fail,
    delete: fail,
    read: fail,
  };
}

/** A registrar whose loads are counted. */
function counted(register: SdkRegistrar): { load: () => Promise<SdkRegistrar>; loads: () => number } {
  let loads = 0;
  return {
    load: async () => {
      loads += 1;
      return register;
    },
    loads: () => loads,
  };
}

describe('ProviderRegistry with lazily loaded providers', () => {
  const cc = fakeProvider('cc-api');

  it('knows which types have an SDK provider without loading any', () => {
    const queues = counted((registry) => registry.registerSdk('AWS::SQS::Queue', fakeProvider('sdk')));
    const customs = counted((registry) =>
      registry.registerSdkFamily({ ...fakeProvider('sdk'), handles: (type) => type.startsWith('Custom::') }),
    );
    const registry = new ProviderRegistry(cc)
      .registerSdkLazily(['AWS::SQS::Queue'], queues.load)
      .registerSdkFamilyLazily((type) => type.startsWith('Custom::'), customs.load);
    expect(registry.canHandle('AWS::SQS::Queue')).toBe(true);
    expect(registry.canHandle('Custom::Thing')).toBe(true);
    expect(registry.unhandledReason('AWS::Nope::Thing')).toBe('unknown-type');
    // Cloud Control types never wait for a load.
    expect(registry.route({ type: 'AWS::Logs::LogGroup', properties: {} }).provisionedBy).toBe('cc-api');
    expect(queues.loads() + customs.loads()).toBe(0);
  });

  it('refuses to route a type before its provider is loaded, and routes as an eager registration after', async () => {
    const queue = fakeProvider('sdk', ['RedriveAllowPolicy']);
    const queues = counted((registry) => registry.registerSdk('AWS::SQS::Queue', queue));
    const registry = new ProviderRegistry(cc).registerSdkLazily(['AWS::SQS::Queue'], queues.load);
    expect(() => registry.route({ type: 'AWS::SQS::Queue', properties: {} })).toThrow(/before .*load/);
    await Promise.all([registry.load(['AWS::SQS::Queue']), registry.load(['AWS::SQS::Queue', 'AWS::X::Y'])]);
    expect(queues.loads()).toBe(1);
    expect(registry.route({ type: 'AWS::SQS::Queue', properties: {} })).toMatchObject({
      provider: queue,
      provisionedBy: 'sdk',
      reason: 'sdk-provider',
    });
    expect(registry.route({ type: 'AWS::SQS::Queue', properties: { RedriveAllowPolicy: {} } })).toMatchObject(
      {
        provisionedBy: 'cc-api',
        reason: 'uncovered-property',
      },
    );
    expect(registry.providerCanUpdate('AWS::SQS::Queue', ['Immutable'])).toBe(false);
  });

  it('loads only the groups of the types asked for, and a family on its first type', async () => {
    const queues = counted((registry) => registry.registerSdk('AWS::SQS::Queue', fakeProvider('sdk')));
    const topics = counted((registry) => registry.registerSdk('AWS::SNS::Topic', fakeProvider('sdk')));
    const custom = { ...fakeProvider('sdk'), handles: (type: string) => type.startsWith('Custom::') };
    const customs = counted((registry) => registry.registerSdkFamily(custom));
    const registry = new ProviderRegistry(cc)
      .registerSdkLazily(['AWS::SQS::Queue'], queues.load)
      .registerSdkLazily(['AWS::SNS::Topic'], topics.load)
      .registerSdkFamilyLazily((type) => type.startsWith('Custom::'), customs.load);
    await registry.load(['AWS::SNS::Topic', 'Custom::A']);
    expect([queues.loads(), topics.loads(), customs.loads()]).toEqual([0, 1, 1]);
    expect(registry.providerFor('Custom::B', 'sdk')).toBe(custom);
  });

  it('keeps a provider registered eagerly over the lazy one for its type', async () => {
    const fast = fakeProvider('sdk');
    const queues = counted((registry) => registry.registerSdk('AWS::SQS::Queue', fakeProvider('sdk')));
    const registry = new ProviderRegistry(cc)
      .registerSdkLazily(['AWS::SQS::Queue'], queues.load)
      .registerSdk('AWS::SQS::Queue', fast);
    await registry.load(['AWS::SQS::Queue']);
    expect(queues.loads()).toBe(0);
    expect(registry.providerFor('AWS::SQS::Queue', 'sdk')).toBe(fast);
  });

  it('fails a load whose registrar registers other types than those listed', async () => {
    const registry = new ProviderRegistry(cc).registerSdkLazily(
      ['AWS::SQS::Queue'],
      async () => (r) =>
        r
          .registerSdk('AWS::SQS::Queue', fakeProvider('sdk'))
          .registerSdk('AWS::SQS::QueuePolicy', fakeProvider('sdk')),
    );
    await expect(registry.load(['AWS::SQS::Queue'])).rejects.toThrow(/listed for AWS::SQS::Queue\./);
  });
});

describe('registerSdkProviders', () => {
  it.each(SDK_PROVIDER_TYPES.map((entry) => [entry.types.join(', '), entry] as const))(
    'lists exactly the types its registrar registers: %s',
    async (_, entry) => {
      const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
      await registry.load(entry.types);
      for (const type of entry.types) expect(registry.providerFor(type, 'sdk').kind).toBe('sdk');
    },
  );

  it('serves custom resources through the custom-resource family once loaded', async () => {
    const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
    expect(registry.canHandle('Custom::Anything')).toBe(true);
    await registry.load(['AWS::CloudFormation::CustomResource']);
    expect(registry.providerFor('Custom::Anything', 'sdk').handles('Custom::Anything')).toBe(true);
  });
});
