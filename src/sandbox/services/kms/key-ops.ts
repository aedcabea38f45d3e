import { randomBytes, randomUUID } from 'node:crypto';
import { optionalString, requiredString } from '../../protocols/json.js';
import { kmsErrors } from './kms-errors.js';
import { keyArn, type KeyRecord, type KmsStore } from './store.js';

type Input = Record<string, unknown>;

export interface KmsCall {
  store: KmsStore;
  accountId: string;
  region: string;
  input: Input;
}

const SYMMETRIC = 'SYMMETRIC_DEFAULT';

/** The key a KeyId names: a key id, key ARN, alias name or alias ARN. */
export function resolveKey({ store, region }: KmsCall, keyIdText: string): KeyRecord {
  const aliasMatch = /^(?:arn:aws:kms:[^:]+:\d{12}:)?(alias\/.+)$/.exec(keyIdText);
  const id = aliasMatch
    ? store.getAlias(region, aliasMatch[1]!)?.targetKeyId
    : keyIdText.replace(/^arn:aws:kms:[^:]+:\d{12}:key\//, '');
  const record = id !== undefined ? store.getKey(region, id) : undefined;
  if (!record) throw kmsErrors.keyNotFound(keyIdText);
  return record;
}

function target(call: KmsCall): KeyRecord {
  return resolveKey(call, requiredString(call.input, 'KeyId'));
}

/** A key that is not pending deletion (KMS refuses most calls on one that is). */
function usable(call: KmsCall): KeyRecord {
  const record = target(call);
  if (record.state === 'PendingDeletion')
    throw kmsErrors.invalidState(keyArn(record, call.accountId), 'pending deletion');
  return record;
}

export function metadata(record: KeyRecord, accountId: string, store?: KmsStore): Record<string, unknown> {
  return {
    ...(record.multiRegion &&
      store && { MultiRegionConfiguration: multiRegionConfiguration(record, accountId, store) }),
    AWSAccountId: accountId,
    KeyId: record.keyId,
    Arn: keyArn(record, accountId),
    CreationDate: record.creationDate / 1000,
    Enabled: record.state === 'Enabled',
    Description: record.description,
    KeyUsage: record.keyUsage,
    KeyState: record.state,
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    CustomerMasterKeySpec: record.keySpec,
    KeySpec: record.keySpec,
    MultiRegion: record.multiRegion,
    ...(record.keySpec === SYMMETRIC ? { EncryptionAlgorithms: [SYMMETRIC] } : {}),
    ...(record.deletionDate !== undefined ? { DeletionDate: record.deletionDate / 1000 } : {}),
  };
}

/** Where a multi-Region key's primary and replicas are. */
function multiRegionConfiguration(
  record: KeyRecord,
  accountId: string,
  store: KmsStore,
): Record<string, unknown> {
  const all = store.keyEverywhere(record.keyId);
  const primary = all.find((key) => key.primaryRegion === undefined) ?? record;
  const at = (key: KeyRecord) => ({ Arn: keyArn(key, accountId), Region: key.region });
  return {
    MultiRegionKeyType: record.primaryRegion === undefined ? 'PRIMARY' : 'REPLICA',
    PrimaryKey: at(primary),
    ReplicaKeys: all.filter((key) => key.primaryRegion !== undefined).map(at),
  };
}

export function checkPolicy(policy: string): string {
  try {
    JSON.parse(policy);
  } catch {
    throw kmsErrors.malformedPolicy();
  }
  return policy;
}

export function defaultPolicy(accountId: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Id: 'key-default-1',
    Statement: [
      {
        Sid: 'Enable IAM User Permissions',
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${accountId}:root` },
        Action: 'kms:*',
        Resource: '*',
      },
    ],
  });
}

export async function createKey(call: KmsCall): Promise<unknown> {
  const { input, accountId, region } = call;
  const policy = optionalString(input, 'Policy');
  const record: KeyRecord = {
    // Multi-Region keys have ids of their own shape, the same in every region.
    keyId: input.MultiRegion === true ? `mrk-${randomBytes(16).toString('hex')}` : randomUUID(),
    region,
    creationDate: Date.now(),
    description: optionalString(input, 'Description') ?? '',
    keyUsage: optionalString(input, 'KeyUsage') ?? 'ENCRYPT_DECRYPT',
    keySpec: optionalString(input, 'KeySpec') ?? optionalString(input, 'CustomerMasterKeySpec') ?? SYMMETRIC,
    multiRegion: input.MultiRegion === true,
    state: 'Enabled',
    policy: policy !== undefined ? checkPolicy(policy) : defaultPolicy(accountId),
    rotation: false,
    tags: (input.Tags as KeyRecord['tags'] | undefined) ?? [],
  };
  await call.store.saveKey(record);
  return { KeyMetadata: metadata(record, accountId, call.store) };
}

export async function describeKey(call: KmsCall): Promise<unknown> {
  return { KeyMetadata: metadata(target(call), call.accountId, call.store) };
}

export async function listKeys(call: KmsCall): Promise<unknown> {
  return {
    Keys: call.store.keysIn(call.region).map((r) => ({ KeyId: r.keyId, KeyArn: keyArn(r, call.accountId) })),
    Truncated: false,
  };
}

export async function updateKeyDescription(call: KmsCall): Promise<unknown> {
  await call.store.saveKey({ ...usable(call), description: requiredString(call.input, 'Description') });
  return {};
}

export async function putKeyPolicy(call: KmsCall): Promise<unknown> {
  const policy = checkPolicy(requiredString(call.input, 'Policy'));
  await call.store.saveKey({ ...usable(call), policy });
  return {};
}

export async function getKeyPolicy(call: KmsCall): Promise<unknown> {
  return { Policy: target(call).policy, PolicyName: 'default' };
}

async function setRotation(call: KmsCall, rotation: boolean): Promise<unknown> {
  const record = usable(call);
  if (record.keySpec !== SYMMETRIC) {
    throw kmsErrors.unsupported(
      `${keyArn(record, call.accountId)} key usage or key spec does not support rotation.`,
    );
  }
  await call.store.saveKey({ ...record, rotation });
  return {};
}

export const enableKeyRotation = (call: KmsCall) => setRotation(call, true);
export const disableKeyRotation = (call: KmsCall) => setRotation(call, false);

export async function getKeyRotationStatus(call: KmsCall): Promise<unknown> {
  return { KeyRotationEnabled: target(call).rotation };
}

export async function enableKey(call: KmsCall): Promise<unknown> {
  await call.store.saveKey({ ...usable(call), state: 'Enabled' });
  return {};
}

export async function disableKey(call: KmsCall): Promise<unknown> {
  await call.store.saveKey({ ...usable(call), state: 'Disabled' });
  return {};
}

export async function scheduleKeyDeletion(call: KmsCall): Promise<unknown> {
  const record = usable(call);
  const days = call.input.PendingWindowInDays ?? 30;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 7 || days > 30) {
    throw kmsErrors.validation(
      `1 validation error detected: Value '${String(days)}' at 'pendingWindowInDays' failed to satisfy constraint: Member must have value between 7 and 30`,
    );
  }
  const deletionDate = Date.now() + days * 86_400_000;
  await call.store.saveKey({ ...record, state: 'PendingDeletion', deletionDate });
  return {
    KeyId: keyArn(record, call.accountId),
    DeletionDate: deletionDate / 1000,
    KeyState: 'PendingDeletion',
    PendingWindowInDays: days,
  };
}

export async function cancelKeyDeletion(call: KmsCall): Promise<unknown> {
  const record = target(call);
  if (record.state !== 'PendingDeletion')
    throw kmsErrors.invalidState(keyArn(record, call.accountId), record.state);
  const restored: KeyRecord = { ...record, state: 'Disabled' };
  delete restored.deletionDate;
  await call.store.saveKey(restored);
  return { KeyId: keyArn(record, call.accountId) };
}

export async function tagResource(call: KmsCall): Promise<unknown> {
  const record = usable(call);
  const added = (call.input.Tags as KeyRecord['tags'] | undefined) ?? [];
  const keys = new Set(added.map((tag) => tag.TagKey));
  await call.store.saveKey({
    ...record,
    tags: [...record.tags.filter((tag) => !keys.has(tag.TagKey)), ...added],
  });
  return {};
}

export async function untagResource(call: KmsCall): Promise<unknown> {
  const record = usable(call);
  const removed = new Set((call.input.TagKeys as string[] | undefined) ?? []);
  await call.store.saveKey({ ...record, tags: record.tags.filter((tag) => !removed.has(tag.TagKey)) });
  return {};
}

export async function listResourceTags(call: KmsCall): Promise<unknown> {
  return { Tags: target(call).tags, Truncated: false };
}
