import { optionalString, requiredString } from '../../protocols/json.js';
import { REGIONS } from '../../account/regions.js';
import { checkPolicy, defaultPolicy, metadata, resolveKey, type KmsCall } from './key-ops.js';
import { kmsErrors } from './kms-errors.js';
import { keyArn, type KeyRecord } from './store.js';

/**
 * ReplicateKey: a replica of a multi-Region primary key in another region of the sandbox,
 * with the primary's id, spec, usage and rotation, and a policy, description and tags of its own.
 */
export async function replicateKey(call: KmsCall): Promise<unknown> {
  const { input, accountId, store } = call;
  const primary = resolveKey(call, requiredString(input, 'KeyId'));
  const replicaRegion = requiredString(input, 'ReplicaRegion');
  const arn = keyArn(primary, accountId);
  if (!primary.multiRegion) throw kmsErrors.unsupported(`${arn} is not a multi-Region key.`);
  if (primary.primaryRegion !== undefined) {
    throw kmsErrors.unsupported(
      `${arn} is a multi-Region replica key; only a primary key can be replicated.`,
    );
  }
  if (primary.state === 'PendingDeletion') throw kmsErrors.invalidState(arn, 'pending deletion');
  if (!REGIONS.includes(replicaRegion)) {
    throw kmsErrors.validation(`${replicaRegion} is not a valid AWS Region.`);
  }
  if (store.getKey(replicaRegion, primary.keyId)) {
    throw kmsErrors.alreadyExists(`Multi-Region key ${primary.keyId} already exists in ${replicaRegion}.`);
  }
  const policy = optionalString(input, 'Policy');
  const replica: KeyRecord = {
    keyId: primary.keyId,
    region: replicaRegion,
    primaryRegion: primary.region,
    creationDate: Date.now(),
    description: optionalString(input, 'Description') ?? '',
    keyUsage: primary.keyUsage,
    keySpec: primary.keySpec,
    multiRegion: true,
    state: 'Enabled',
    policy: policy !== undefined ? checkPolicy(policy) : defaultPolicy(accountId),
    rotation: primary.rotation,
    tags: (input.Tags as KeyRecord['tags'] | undefined) ?? [],
  };
  await store.saveKey(replica);
  return {
    ReplicaKeyMetadata: metadata(replica, accountId, store),
    ReplicaPolicy: replica.policy,
    ReplicaTags: replica.tags,
  };
}
