import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import * as aliases from './alias-ops.js';
import * as keys from './key-ops.js';
import { replicateKey } from './replicate-ops.js';
import { kmsErrors } from './kms-errors.js';
import { KmsStore } from './store.js';

const HANDLERS: Record<string, (call: keys.KmsCall) => Promise<unknown>> = {
  CreateKey: keys.createKey,
  DescribeKey: keys.describeKey,
  ListKeys: keys.listKeys,
  UpdateKeyDescription: keys.updateKeyDescription,
  PutKeyPolicy: keys.putKeyPolicy,
  GetKeyPolicy: keys.getKeyPolicy,
  EnableKeyRotation: keys.enableKeyRotation,
  DisableKeyRotation: keys.disableKeyRotation,
  GetKeyRotationStatus: keys.getKeyRotationStatus,
  EnableKey: keys.enableKey,
  DisableKey: keys.disableKey,
  ScheduleKeyDeletion: keys.scheduleKeyDeletion,
  CancelKeyDeletion: keys.cancelKeyDeletion,
  TagResource: keys.tagResource,
  UntagResource: keys.untagResource,
  ListResourceTags: keys.listResourceTags,
  ReplicateKey: replicateKey,
  CreateAlias: aliases.createAlias,
  UpdateAlias: aliases.updateAlias,
  DeleteAlias: aliases.deleteAlias,
  ListAliases: aliases.listAliases,
};

const READ_ONLY = /^(Describe|Get|List)/;

/** KMS over JSON 1.1 (`TrentService.<Op>`): keys (no cryptography) and aliases. */
export const createKmsService: ServiceModuleFactory = async (context) => {
  const store = await KmsStore.load(context.storage);
  const module: ServiceModule = {
    name: 'kms',
    codec: jsonCodec('1.1'),
    operation: (request) => jsonOperation(request, 'TrentService'),
    isMutating: (operation) => !READ_ONLY.test(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw kmsErrors.unknownOperation(operation);
      const call = { store, accountId: request.accountId, region: request.region, input: jsonInput(request) };
      return jsonResult('1.1', await handler(call));
    },
    inventory() {
      return {
        'AWS::KMS::Key': store
          .allKeys()
          .map((key) => ({ id: key.keyId, region: key.region, state: key.state })),
        'AWS::KMS::Alias': store
          .allAliases()
          .map((alias) => ({ id: alias.aliasName, region: alias.region, targetKeyId: alias.targetKeyId })),
      };
    },
  };
  return module;
};
