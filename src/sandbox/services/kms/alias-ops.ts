import { requiredString } from '../../protocols/json.js';
import { resolveKey, type KmsCall } from './key-ops.js';
import { kmsErrors } from './kms-errors.js';
import { aliasArn, type AliasRecord } from './store.js';

const ALIAS_NAME = /^alias\/[a-zA-Z0-9/_-]{1,250}$/;

function validName(call: KmsCall): string {
  const name = requiredString(call.input, 'AliasName');
  if (!ALIAS_NAME.test(name)) {
    throw kmsErrors.validation(
      `1 validation error detected: Value '${name}' at 'aliasName' failed to satisfy constraint: Member must satisfy regular expression pattern: ^alias/[a-zA-Z0-9/_-]+$`,
    );
  }
  if (name.startsWith('alias/aws/')) {
    throw kmsErrors.invalidAliasName(
      `Alias names starting with alias/aws/ are reserved for AWS managed keys: ${name}`,
    );
  }
  return name;
}

function target(call: KmsCall): string {
  const record = resolveKey(call, requiredString(call.input, 'TargetKeyId'));
  if (record.state === 'PendingDeletion') {
    throw kmsErrors.invalidState(
      `arn:aws:kms:${call.region}:${call.accountId}:key/${record.keyId}`,
      'pending deletion',
    );
  }
  return record.keyId;
}

export async function createAlias(call: KmsCall): Promise<unknown> {
  const aliasName = validName(call);
  if (call.store.getAlias(call.region, aliasName)) throw kmsErrors.aliasExists(aliasName);
  await call.store.saveAlias({
    aliasName,
    region: call.region,
    targetKeyId: target(call),
    creationDate: Date.now(),
  });
  return {};
}

export async function updateAlias(call: KmsCall): Promise<unknown> {
  const aliasName = requiredString(call.input, 'AliasName');
  const record = call.store.getAlias(call.region, aliasName);
  if (!record) throw kmsErrors.aliasNotFound(aliasArn({ region: call.region, aliasName }, call.accountId));
  await call.store.saveAlias({ ...record, targetKeyId: target(call) });
  return {};
}

export async function deleteAlias(call: KmsCall): Promise<unknown> {
  const aliasName = requiredString(call.input, 'AliasName');
  const record = call.store.getAlias(call.region, aliasName);
  if (!record) throw kmsErrors.aliasNotFound(aliasArn({ region: call.region, aliasName }, call.accountId));
  await call.store.deleteAlias(record);
  return {};
}

export async function listAliases(call: KmsCall): Promise<unknown> {
  const keyId = typeof call.input.KeyId === 'string' ? resolveKey(call, call.input.KeyId).keyId : undefined;
  const aliases = call.store
    .aliasesIn(call.region)
    .filter((alias) => keyId === undefined || alias.targetKeyId === keyId)
    .map((alias: AliasRecord) => ({
      AliasName: alias.aliasName,
      AliasArn: aliasArn(alias, call.accountId),
      TargetKeyId: alias.targetKeyId,
      CreationDate: alias.creationDate / 1000,
    }));
  return { Aliases: aliases, Truncated: false };
}
