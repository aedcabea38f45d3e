import { registerCloudWatch } from './cloudwatch/index.js';
import { CustomResourceProvider } from './custom-resource/index.js';
import { registerDynamoDb } from './dynamodb/index.js';
import { registerEvents } from './events/index.js';
import { registerIam } from './iam/index.js';
import { registerKms } from './kms/index.js';
import { registerLambda } from './lambda/index.js';
import { registerLogs } from './logs/index.js';
import type { ProviderRegistry } from './registry.js';
import { registerS3 } from './s3/index.js';
import { registerSecretsManager } from './secretsmanager/index.js';
import { registerSns } from './sns/index.js';
import { registerSqs } from './sqs/index.js';
import { registerSsm } from './ssm/index.js';

/**
 * Every SDK provider cdkd has, registered per type; types without one go
 * through Cloud Control. Each service folder adds its own registration here.
 */
export function registerSdkProviders(registry: ProviderRegistry): ProviderRegistry {
  registerIam(registry);
  registerLogs(registry);
  registerDynamoDb(registry);
  registerSsm(registry);
  registerKms(registry);
  registerSecretsManager(registry);
  registerEvents(registry);
  registerSqs(registry);
  registerSns(registry);
  registerS3(registry);
  registerLambda(registry);
  registerCloudWatch(registry);
  registry.registerSdkFamily(new CustomResourceProvider());
  return registry;
}
