import { DescribeKeyCommand, KMSClient, ListAliasesCommand, ListKeysCommand } from '@aws-sdk/client-kms';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { AliasProvider } from '../../src/providers/kms/alias.js';
import { registerKms } from '../../src/providers/kms/index.js';
import { KeyProvider } from '../../src/providers/kms/key.js';
import { KMS_REF_ATTRIBUTES } from '../../src/providers/kms/ref-attributes.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { eventsTo } from '../helpers/recording-io-host.js';

const sandbox = useSandbox();
const ACCOUNT = '000000000000';
const keys = new KeyProvider();
const aliases = new AliasProvider();
let context: ProviderContext;
let kms: KMSClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: 'us-east-1' });
  context = { clients, accountId: ACCOUNT, region: 'us-east-1', stackName: 'KmsStack' };
  kms = await clients.client(KMSClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox.current));

async function countKeys(): Promise<number> {
  return ((await kms.send(new ListKeysCommand({ Limit: 1000 }))).Keys ?? []).length;
}

const policy = (sid: string) => ({
  Version: '2012-10-17',
  Statement: [
    {
      Sid: sid,
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
      Action: 'kms:*',
      Resource: '*',
    },
  ],
});
const keyType = 'AWS::KMS::Key';

describe('AWS::KMS::Key', () => {
  it('creates, updates in place, reads back, and deletes by scheduling deletion', async () => {
    const properties = {
      KeyPolicy: policy('one'),
      Description: 'first',
      EnableKeyRotation: true,
      Tags: [{ Key: 'a', Value: '1' }],
    };
    const created = await keys.create({ logicalId: 'Key', type: keyType, properties }, context);
    const request = { logicalId: 'Key', type: keyType, physicalId: created.physicalId };
    const next = {
      ...properties,
      KeyPolicy: policy('two'),
      Description: 'second',
      EnableKeyRotation: 'false',
      Enabled: false,
      Tags: [{ Key: 'b', Value: '2' }],
      PendingWindowInDays: '7',
    };
    await keys.update({ ...request, properties: next, previousProperties: properties }, context);
    const read = await keys.read({ ...request, properties: next }, context);
    expect(read!.properties).toMatchObject({
      Description: 'second',
      EnableKeyRotation: false,
      Enabled: false,
      KeyPolicy: policy('two'),
      Tags: [{ Key: 'b', Value: '2' }],
    });
    await keys.delete({ ...request, properties: next }, context);
    const described = await kms.send(new DescribeKeyCommand({ KeyId: created.physicalId }));
    expect(described.KeyMetadata!.KeyState).toBe('PendingDeletion');
    expect(described.KeyMetadata!.DeletionDate!.getTime() - Date.now()).toBeLessThan(8 * 86_400_000);
    expect(await keys.read({ ...request, properties: next }, context)).toBeUndefined();
    await keys.delete({ ...request, properties: next }, context);
  });

  it('reports the key made when its rotation call fails; the retry takes it back, no second key', async () => {
    const request = {
      logicalId: 'Rotated',
      type: keyType,
      properties: { Description: 'rotated', EnableKeyRotation: true, Enabled: false },
      idempotencyToken: 'kms-rotated',
    };
    const before = await countKeys();
    await failNext(sandbox.current, 'kms', 'EnableKeyRotation');
    const made = await madeError(keys.create(request, context));
    const live = await keys.read({ ...request, physicalId: made.made.physicalId }, context);
    expect(live).toBeDefined();
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    const retried = await keys.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
    expect(retried.creationIdentity).toEqual(made.made.creationIdentity);
    expect(await countKeys()).toBe(before + 1);
    const read = await keys.read({ ...request, physicalId: retried.physicalId }, context);
    expect(read!.properties).toMatchObject({ EnableKeyRotation: true, Enabled: false });
  });

  it('locates the key a create made by the token tag CreateKey wrote, which reads leave out', async () => {
    const request = {
      logicalId: 'Key',
      type: keyType,
      properties: { KeyPolicy: policy('loc'), Tags: [{ Key: 'team', Value: 'a' }] },
      idempotencyToken: 'kms-loc-1',
    };
    const created = await keys.create(request, context);
    expect(await keys.locate(request, context)).toEqual({ physicalId: created.physicalId });
    expect(await keys.locate({ ...request, idempotencyToken: 'kms-loc-other' }, context)).toBe('none');
    expect(await keys.locate({ ...request, idempotencyToken: undefined }, context)).toBe('unknown');
    const live = await keys.read({ ...request, physicalId: created.physicalId }, context);
    expect(live?.properties.Tags).toEqual([{ Key: 'team', Value: 'a' }]);
  });

  it('keeps KeySpec, KeyUsage and MultiRegion create-only and reports what it cannot send', () => {
    expect(
      keys.canUpdateInPlace(keyType, ['Description', 'KeyPolicy', 'EnableKeyRotation', 'Tags', 'Enabled']),
    ).toBe(true);
    for (const p of ['KeySpec', 'KeyUsage', 'MultiRegion'])
      expect(keys.canUpdateInPlace(keyType, [p])).toBe(false);
    expect(keys.uncoveredProperties(keyType, { Description: 'd', RotationPeriodInDays: 90 })).toEqual([
      'RotationPeriodInDays',
    ]);
  });
});

describe('AWS::KMS::Alias', () => {
  it('creates, moves to another key in place, reads and deletes', async () => {
    const first = await keys.create({ logicalId: 'K1', type: keyType, properties: {} }, context);
    const second = await keys.create({ logicalId: 'K2', type: keyType, properties: {} }, context);
    const type = 'AWS::KMS::Alias';
    const properties = { AliasName: 'alias/app', TargetKeyId: first.physicalId };
    const created = await aliases.create({ logicalId: 'Alias', type, properties }, context);
    expect(created.physicalId).toBe('alias/app');
    const request = { logicalId: 'Alias', type, physicalId: 'alias/app' };
    const next = { ...properties, TargetKeyId: second.attributes.Arn as string };
    expect(aliases.canUpdateInPlace(type, ['TargetKeyId'])).toBe(true);
    expect(aliases.canUpdateInPlace(type, ['AliasName'])).toBe(false);
    await aliases.update({ ...request, properties: next, previousProperties: properties }, context);
    expect((await aliases.read({ ...request, properties: next }, context))!.properties).toEqual({
      AliasName: 'alias/app',
      TargetKeyId: second.physicalId,
    });
    await aliases.delete({ ...request, properties: next }, context);
    expect(await aliases.read({ ...request, properties: next }, context)).toBeUndefined();
    await aliases.delete({ ...request, properties: next }, context);
  });
});

describe('Ref and Fn::GetAtt, row by row', () => {
  it.each(Object.entries(KMS_REF_ATTRIBUTES))('%s', async (rowType, row) => {
    const key = await keys.create({ logicalId: 'RowKey', type: keyType, properties: {} }, context);
    const created =
      rowType === keyType
        ? key
        : await aliases.create(
            {
              logicalId: 'Row',
              type: rowType,
              properties: { AliasName: 'alias/row', TargetKeyId: key.physicalId },
            },
            context,
          );
    expect(row.ref).toBe('physicalId');
    expect(created.ref).toBeUndefined();
    const expected = Object.fromEntries(
      Object.entries(row.attributes).map(([name, shape]) => [
        name,
        shape
          .replace('{region}', 'us-east-1')
          .replace('{account}', ACCOUNT)
          .replace('{id}', created.physicalId),
      ]),
    );
    expect(created.attributes).toEqual(expected);
  });
});

describe('through the engine', () => {
  it('a KeyUsage change replaces the key, and the alias follows the new key', async () => {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'kms-engine-state' }));
    const backend = await openStateBackend(clients, 'kms-engine-state', 'cdkd');
    const registry = new ProviderRegistry(new CloudControlProvider());
    registerKms(registry);
    const engine = await createEngine({
      backend,
      clients,
      registry,
      io: eventsTo(() => {}),
      command: 'deploy',
      regions: ['us-east-1'],
    });
    const template = (key: Record<string, unknown>) => ({
      Resources: {
        Key: { Type: keyType, Properties: { ...key, PendingWindowInDays: 7 } },
        Alias: {
          Type: 'AWS::KMS::Alias',
          Properties: { AliasName: 'alias/engine', TargetKeyId: { Ref: 'Key' } },
        },
      },
    });
    const request = {
      stateName: 'KmsReplace',
      stackName: 'KmsReplace',
      region: 'us-east-1',
      accountId: ACCOUNT,
    };
    const options = { concurrency: 2, forceStatefulRecreation: true };
    await engine.deploy(
      { ...request, template: template({ KeyUsage: 'GENERATE_VERIFY_MAC', KeySpec: 'HMAC_256' }) },
      options,
    );
    const state = async () =>
      (await backend.store.read({ stackName: 'KmsReplace', region: 'us-east-1' }))!.document.resources;
    const firstKey = (await state()).Key!.physicalId;
    await engine.deploy({ ...request, template: template({ KeyUsage: 'ENCRYPT_DECRYPT' }) }, options);
    const secondKey = (await state()).Key!.physicalId;
    expect(secondKey).not.toBe(firstKey);
    expect((await kms.send(new DescribeKeyCommand({ KeyId: firstKey }))).KeyMetadata!.KeyState).toBe(
      'PendingDeletion',
    );
    const aliasList = await kms.send(new ListAliasesCommand({}));
    expect(aliasList.Aliases!.find((a) => a.AliasName === 'alias/engine')!.TargetKeyId).toBe(secondKey);
  });
});
