import { isCustomResourceType } from './handled-types.js';
import type { ProviderRegistry, SdkRegistrar } from './registry.js';

/**
 * Every SDK provider cdkd has, by the types each service folder registers; types without one
 * go through Cloud Control. A folder's module and its AWS SDK client load on the first use of
 * one of its types (a no-op deploy loads none). A service folder adds its types and registrar
 * here; a test checks that each registrar registers exactly the types listed.
 *
 * Routing exemptions (spec 003): a type is `sdk-coverage` only when its provider sends every
 * property of the type's schema AND its recorded id is measured to be the Cloud Control
 * identifier (cc-identifier-compatibility.ts), since returning updates the Cloud Control-made
 * resource through the SDK by that id; today that is AWS::IAM::Role. Other fully covered
 * types (IAM policies, groups and instance profiles, SQS queues and policies, SNS
 * subscriptions and topic policies, S3 bucket policies, KMS aliases, EventBridge rules,
 * Lambda layer versions, URLs and event invoke configs) stay sticky until their ids are measured. No type cdkd
 * serves is known to be one Cloud Control cannot manage (`cc-cannot-manage`).
 */
export const SDK_PROVIDER_TYPES: ReadonlyArray<{
  types: readonly string[];
  load: () => Promise<SdkRegistrar>;
}> = [
  {
    types: [
      'AWS::IAM::Role',
      'AWS::IAM::Policy',
      'AWS::IAM::ManagedPolicy',
      'AWS::IAM::InstanceProfile',
      'AWS::IAM::User',
      'AWS::IAM::Group',
    ],
    load: async () => (await import('./iam/index.js')).registerIam,
  },
  {
    types: ['AWS::Logs::LogGroup', 'AWS::Logs::MetricFilter', 'AWS::Logs::SubscriptionFilter'],
    load: async () => (await import('./logs/index.js')).registerLogs,
  },
  {
    types: ['AWS::DynamoDB::Table'],
    load: async () => (await import('./dynamodb/index.js')).registerDynamoDb,
  },
  { types: ['AWS::SSM::Parameter'], load: async () => (await import('./ssm/index.js')).registerSsm },
  {
    types: ['AWS::KMS::Key', 'AWS::KMS::Alias'],
    load: async () => (await import('./kms/index.js')).registerKms,
  },
  {
    types: ['AWS::SecretsManager::Secret'],
    load: async () => (await import('./secretsmanager/index.js')).registerSecretsManager,
  },
  {
    types: ['AWS::Events::EventBus', 'AWS::Events::Rule'],
    load: async () => (await import('./events/index.js')).registerEvents,
  },
  {
    types: ['AWS::SQS::Queue', 'AWS::SQS::QueuePolicy'],
    load: async () => (await import('./sqs/index.js')).registerSqs,
  },
  {
    types: ['AWS::SNS::Topic', 'AWS::SNS::Subscription', 'AWS::SNS::TopicPolicy'],
    load: async () => (await import('./sns/index.js')).registerSns,
  },
  {
    types: ['AWS::S3::Bucket', 'AWS::S3::BucketPolicy'],
    load: async () => (await import('./s3/index.js')).registerS3,
  },
  {
    types: [
      'AWS::Lambda::Function',
      'AWS::Lambda::Permission',
      'AWS::Lambda::Version',
      'AWS::Lambda::Alias',
      'AWS::Lambda::EventSourceMapping',
      'AWS::Lambda::LayerVersion',
      'AWS::Lambda::Url',
      'AWS::Lambda::EventInvokeConfig',
    ],
    load: async () => (await import('./lambda/index.js')).registerLambda,
  },
  {
    types: ['AWS::CloudWatch::Alarm'],
    load: async () => (await import('./cloudwatch/index.js')).registerCloudWatch,
  },
  {
    types: [
      'AWS::EC2::Subnet',
      'AWS::EC2::VPC',
      'AWS::EC2::InternetGateway',
      'AWS::EC2::VPCGatewayAttachment',
      'AWS::EC2::RouteTable',
      'AWS::EC2::Route',
      'AWS::EC2::SubnetRouteTableAssociation',
      'AWS::EC2::EIP',
      'AWS::EC2::NatGateway',
      'AWS::EC2::SecurityGroup',
      'AWS::EC2::SecurityGroupIngress',
      'AWS::EC2::SecurityGroupEgress',
      'AWS::EC2::VPCEndpoint',
    ],
    load: async () => (await import('./ec2/index.js')).registerEc2,
  },
  {
    types: [
      'AWS::ApiGateway::RestApi',
      'AWS::ApiGateway::Resource',
      'AWS::ApiGateway::Method',
      'AWS::ApiGateway::Deployment',
      'AWS::ApiGateway::Stage',
    ],
    load: async () => (await import('./apigateway/index.js')).registerApiGateway,
  },
  {
    types: ['AWS::StepFunctions::StateMachine'],
    load: async () => (await import('./stepfunctions/index.js')).registerStepFunctions,
  },
  {
    types: [
      'AWS::ApiGatewayV2::Api',
      'AWS::ApiGatewayV2::Route',
      'AWS::ApiGatewayV2::Integration',
      'AWS::ApiGatewayV2::Stage',
    ],
    load: async () => (await import('./apigatewayv2/index.js')).registerApiGatewayV2,
  },
  {
    types: ['AWS::ECS::Cluster', 'AWS::ECS::TaskDefinition', 'AWS::ECS::Service'],
    load: async () => (await import('./ecs/index.js')).registerEcs,
  },
  {
    types: [
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      'AWS::ElasticLoadBalancingV2::TargetGroup',
      'AWS::ElasticLoadBalancingV2::Listener',
      'AWS::ElasticLoadBalancingV2::ListenerRule',
    ],
    load: async () => (await import('./elbv2/index.js')).registerElbv2,
  },
];

/** Custom resources: every `Custom::*` type and AWS::CloudFormation::CustomResource. */
async function loadCustomResources(): Promise<SdkRegistrar> {
  const { CustomResourceProvider } = await import('./custom-resource/provider.js');
  return (registry) => registry.registerSdkFamily(new CustomResourceProvider());
}

/** Registers every SDK provider, each group loaded on first use. */
export function registerSdkProviders(registry: ProviderRegistry): ProviderRegistry {
  for (const { types, load } of SDK_PROVIDER_TYPES) registry.registerSdkLazily(types, load);
  return registry.registerSdkFamilyLazily(isCustomResourceType, loadCustomResources);
}
