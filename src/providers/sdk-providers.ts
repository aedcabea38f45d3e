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
 *
 * Routing exemptions (spec 003): a type is `sdk-coverage` only when its provider sends every
 * property of the type's schema AND its recorded id is measured to be the Cloud Control
 * identifier (cc-identifier-compatibility.ts), since returning updates the Cloud Control-made
 * resource through the SDK by that id; today that is AWS::IAM::Role. Other fully covered
 * types (IAM policies, groups and instance profiles, SQS queues and policies, SNS
 * subscriptions and topic policies, S3 bucket policies, KMS aliases, EventBridge rules,
 * Lambda layer versions and URLs) stay sticky until their ids are measured. No type cdkd
 * serves is known to be one Cloud Control cannot manage (`cc-cannot-manage`).
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
