import { randomUUID } from 'node:crypto';
import { randomString } from '../../ids.js';
import { optionalString, requiredString } from '../../protocols/json.js';
import { randomPassword } from './password.js';
import { secretsErrors } from './secrets-errors.js';
import type { SecretRecord, SecretStore, SecretVersion } from './store.js';

type Input = Record<string, unknown>;

export interface SecretsCall {
  store: SecretStore;
  accountId: string;
  region: string;
  input: Input;
}

const DAY_MS = 86_400_000;

function find(call: SecretsCall): SecretRecord {
  const secret = call.store.find(call.region, requiredString(call.input, 'SecretId'));
  if (!secret) throw secretsErrors.notFound();
  return secret;
}

function live(call: SecretsCall): SecretRecord {
  const secret = find(call);
  if (secret.deletedDate !== undefined) throw secretsErrors.markedForDeletion();
  return secret;
}

/** The new current version (AWSCURRENT moves to it; the old current becomes AWSPREVIOUS). */
function withValue(secret: SecretRecord, input: Input): { secret: SecretRecord; versionId: string } {
  const versionId = optionalString(input, 'ClientRequestToken') ?? randomUUID();
  const version: SecretVersion = {
    versionId,
    stages: ['AWSCURRENT'],
    createdDate: Date.now(),
    ...(typeof input.SecretString === 'string' ? { secretString: input.SecretString } : {}),
    ...(typeof input.SecretBinary === 'string' ? { secretBinary: input.SecretBinary } : {}),
  };
  const versions = secret.versions
    .filter((v) => v.stages.includes('AWSCURRENT'))
    .map((v) => ({ ...v, stages: ['AWSPREVIOUS'] }));
  return { secret: { ...secret, versions: [...versions, version], lastChangedDate: Date.now() }, versionId };
}

const hasValue = (input: Input) =>
  typeof input.SecretString === 'string' || typeof input.SecretBinary === 'string';

export async function createSecret(call: SecretsCall): Promise<unknown> {
  const name = requiredString(call.input, 'Name');
  const existing = call.store.find(call.region, name);
  if (existing)
    throw existing.deletedDate !== undefined
      ? secretsErrors.pendingDeletionName()
      : secretsErrors.exists(name);
  const now = Date.now();
  const description = optionalString(call.input, 'Description');
  const kmsKeyId = optionalString(call.input, 'KmsKeyId');
  let secret: SecretRecord = {
    name,
    arn: `arn:aws:secretsmanager:${call.region}:${call.accountId}:secret:${name}-${randomString(6)}`,
    region: call.region,
    ...(description !== undefined ? { description } : {}),
    ...(kmsKeyId !== undefined ? { kmsKeyId } : {}),
    tags: (call.input.Tags as SecretRecord['tags'] | undefined) ?? [],
    createdDate: now,
    lastChangedDate: now,
    versions: [],
  };
  let versionId: string | undefined;
  if (hasValue(call.input)) ({ secret, versionId } = withValue(secret, call.input));
  await call.store.save(secret);
  return { ARN: secret.arn, Name: name, ...(versionId !== undefined ? { VersionId: versionId } : {}) };
}

export async function describeSecret(call: SecretsCall): Promise<unknown> {
  const secret = find(call);
  return {
    ARN: secret.arn,
    Name: secret.name,
    ...(secret.description !== undefined ? { Description: secret.description } : {}),
    ...(secret.kmsKeyId !== undefined ? { KmsKeyId: secret.kmsKeyId } : {}),
    Tags: secret.tags,
    CreatedDate: secret.createdDate / 1000,
    LastChangedDate: secret.lastChangedDate / 1000,
    ...(secret.deletedDate !== undefined ? { DeletedDate: secret.deletedDate / 1000 } : {}),
    VersionIdsToStages: Object.fromEntries(secret.versions.map((v) => [v.versionId, v.stages])),
  };
}

export async function getSecretValue(call: SecretsCall): Promise<unknown> {
  const secret = live(call);
  const stage = optionalString(call.input, 'VersionStage') ?? 'AWSCURRENT';
  const versionId = optionalString(call.input, 'VersionId');
  const version = secret.versions.find((v) =>
    versionId !== undefined ? v.versionId === versionId : v.stages.includes(stage),
  );
  if (!version) throw secretsErrors.notFound();
  return {
    ARN: secret.arn,
    Name: secret.name,
    VersionId: version.versionId,
    VersionStages: version.stages,
    CreatedDate: version.createdDate / 1000,
    ...(version.secretString !== undefined ? { SecretString: version.secretString } : {}),
    ...(version.secretBinary !== undefined ? { SecretBinary: version.secretBinary } : {}),
  };
}

export async function putSecretValue(call: SecretsCall): Promise<unknown> {
  if (!hasValue(call.input))
    throw secretsErrors.invalidParameter('You must provide either SecretString or SecretBinary.');
  const { secret, versionId } = withValue(live(call), call.input);
  await call.store.save(secret);
  return { ARN: secret.arn, Name: secret.name, VersionId: versionId, VersionStages: ['AWSCURRENT'] };
}

export async function updateSecret(call: SecretsCall): Promise<unknown> {
  let secret = { ...live(call), lastChangedDate: Date.now() };
  const description = optionalString(call.input, 'Description');
  const kmsKeyId = optionalString(call.input, 'KmsKeyId');
  if (description !== undefined) secret.description = description;
  if (kmsKeyId !== undefined) secret.kmsKeyId = kmsKeyId;
  let versionId: string | undefined;
  if (hasValue(call.input)) ({ secret, versionId } = withValue(secret, call.input));
  await call.store.save(secret);
  return { ARN: secret.arn, Name: secret.name, ...(versionId !== undefined ? { VersionId: versionId } : {}) };
}

export async function deleteSecret(call: SecretsCall): Promise<unknown> {
  const secret = find(call);
  const force = call.input.ForceDeleteWithoutRecovery === true;
  const window = call.input.RecoveryWindowInDays;
  if (force && window !== undefined) {
    throw secretsErrors.invalidParameter(
      "You can't use ForceDeleteWithoutRecovery in conjunction with RecoveryWindowInDays.",
    );
  }
  const days = typeof window === 'number' ? window : 30;
  if (!force && (days < 7 || days > 30)) {
    throw secretsErrors.invalidParameter(
      'The RecoveryWindowInDays value must be between 7 and 30 days (inclusive).',
    );
  }
  if (force) {
    await call.store.delete(secret);
    return { ARN: secret.arn, Name: secret.name, DeletionDate: Date.now() / 1000 };
  }
  if (secret.deletedDate !== undefined) throw secretsErrors.markedForDeletion();
  const deletedDate = Date.now();
  await call.store.save({ ...secret, deletedDate });
  return { ARN: secret.arn, Name: secret.name, DeletionDate: (deletedDate + days * DAY_MS) / 1000 };
}

export async function restoreSecret(call: SecretsCall): Promise<unknown> {
  const restored = { ...find(call) };
  delete restored.deletedDate;
  await call.store.save(restored);
  return { ARN: restored.arn, Name: restored.name };
}

export async function tagResource(call: SecretsCall): Promise<unknown> {
  const secret = live(call);
  const added = (call.input.Tags as SecretRecord['tags'] | undefined) ?? [];
  const keys = new Set(added.map((t) => t.Key));
  await call.store.save({ ...secret, tags: [...secret.tags.filter((t) => !keys.has(t.Key)), ...added] });
  return {};
}

export async function untagResource(call: SecretsCall): Promise<unknown> {
  const secret = live(call);
  const removed = new Set((call.input.TagKeys as string[] | undefined) ?? []);
  await call.store.save({ ...secret, tags: secret.tags.filter((t) => !removed.has(t.Key)) });
  return {};
}

export async function listSecrets(call: SecretsCall): Promise<unknown> {
  const list = call.store
    .list(call.region)
    .filter((s) => s.deletedDate === undefined || call.input.IncludePlannedDeletion === true);
  return { SecretList: list.map((s) => ({ ARN: s.arn, Name: s.name, CreatedDate: s.createdDate / 1000 })) };
}

export async function getRandomPassword(call: SecretsCall): Promise<unknown> {
  return { RandomPassword: randomPassword(call.input) };
}
