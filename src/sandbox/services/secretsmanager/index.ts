import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import * as ops from './secret-ops.js';
import { secretsErrors } from './secrets-errors.js';
import { SecretStore } from './store.js';

const HANDLERS: Record<string, (call: ops.SecretsCall) => Promise<unknown>> = {
  CreateSecret: ops.createSecret,
  DescribeSecret: ops.describeSecret,
  GetSecretValue: ops.getSecretValue,
  PutSecretValue: ops.putSecretValue,
  UpdateSecret: ops.updateSecret,
  DeleteSecret: ops.deleteSecret,
  RestoreSecret: ops.restoreSecret,
  TagResource: ops.tagResource,
  UntagResource: ops.untagResource,
  ListSecrets: ops.listSecrets,
  GetRandomPassword: ops.getRandomPassword,
};

const READ_ONLY = new Set(['DescribeSecret', 'GetSecretValue', 'ListSecrets', 'GetRandomPassword']);

/** Secrets Manager over JSON 1.1 (`secretsmanager.<Op>`). */
export const createSecretsManagerService: ServiceModuleFactory = async (context) => {
  const store = await SecretStore.load(context.storage);
  const module: ServiceModule = {
    name: 'secretsmanager',
    codec: jsonCodec('1.1'),
    operation: (request) => jsonOperation(request, 'secretsmanager'),
    isMutating: (operation) => !READ_ONLY.has(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw secretsErrors.unknownOperation(operation);
      const call = { store, accountId: request.accountId, region: request.region, input: jsonInput(request) };
      return jsonResult('1.1', await handler(call));
    },
    inventory() {
      return {
        'AWS::SecretsManager::Secret': store.all().map((secret) => ({
          id: secret.arn,
          name: secret.name,
          region: secret.region,
          ...(secret.deletedDate !== undefined ? { pendingDeletion: true } : {}),
        })),
      };
    },
  };
  return module;
};
