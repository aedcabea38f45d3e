import type { ActionTimes, LatencyProfile } from './profile.js';

const S = 1000;
const MIN = 60 * S;

/** One figure for every action. */
const all = (ms: number): ActionTimes => ({ create: ms, update: ms, delete: ms });

// Each group says where its figures come from. "Docs" is what AWS's documentation states;
// "stack events" is the duration CloudFormation's CREATE_IN_PROGRESS → CREATE_COMPLETE
// events typically show for the type in us-east-1, rounded: an estimate, not a guarantee.

/**
 * One synchronous API call and nothing to wait for: the call's round trip (a few hundred ms at
 * most, stack events show them done within a second).
 */
const SINGLE_CALL: Record<string, ActionTimes> = {
  'AWS::SSM::Parameter': all(100),
  'AWS::SNS::Topic': all(200),
  'AWS::SNS::Subscription': all(300),
  'AWS::SNS::TopicPolicy': all(300),
  'AWS::SQS::QueuePolicy': all(300),
  'AWS::Logs::LogGroup': all(200),
  'AWS::Lambda::Permission': all(300),
  'AWS::Lambda::Version': all(1 * S),
  'AWS::Lambda::Alias': all(500),
  'AWS::Events::Rule': all(500),
  'AWS::IAM::Policy': all(500),
  'AWS::IAM::ManagedPolicy': all(500),
  'AWS::S3::BucketPolicy': all(500),
  'AWS::CloudWatch::Alarm': all(300),
  'AWS::SecretsManager::Secret': all(500),
  'AWS::KMS::Alias': all(300),
  'AWS::StepFunctions::StateMachine': all(1 * S),
};

/**
 * Docs: SQS asks callers to wait at least one second after CreateQueue before using the
 * queue (CreateQueue API reference). S3: a bucket is usable after CreateBucket returns; stack
 * events show a second or two with its configuration calls.
 */
const STORAGE: Record<string, ActionTimes> = {
  'AWS::SQS::Queue': all(1 * S),
  'AWS::S3::Bucket': { create: 2 * S, update: 1 * S, delete: 1 * S },
  // Stack events: an on-demand table is CREATING for several seconds, DELETING about as long.
  'AWS::DynamoDB::Table': { create: 8 * S, update: 5 * S, delete: 5 * S },
  'AWS::KMS::Key': { create: 2 * S, update: 1 * S, delete: 1 * S },
};

/**
 * Propagation windows. Docs: IAM is eventually consistent, a new role may not be usable at
 * once (IAM user guide, "Troubleshoot IAM": changes take time to propagate); Lambda refuses a
 * role it cannot assume yet with InvalidParameterValueException, commonly for 5–10 s, so the
 * role's create time here is that window. Docs: a new function is Pending until its
 * resources are ready, typically seconds (Lambda developer guide, "Lambda function states");
 * an update is InProgress for about as long.
 */
const SERVERLESS: Record<string, ActionTimes> = {
  'AWS::IAM::Role': { create: 8 * S, update: 1 * S, delete: 1 * S },
  'AWS::Lambda::Function': { create: 3 * S, update: 2 * S, delete: 1 * S },
  // Stack events: an event source mapping goes Creating → Enabled in seconds.
  'AWS::Lambda::EventSourceMapping': { create: 5 * S, update: 5 * S, delete: 5 * S },
};

/**
 * The VPC set. Docs: a NAT gateway is `pending` before `available`, which "can take a few
 * minutes", and `deleting` about a minute (VPC user guide, "NAT gateways"); an interface
 * endpoint is `pending` for about as long. The rest are single calls that stack events show
 * done in one to a few seconds (an attachment, a route waits for its target).
 */
const NETWORK: Record<string, ActionTimes> = {
  'AWS::EC2::VPC': all(2 * S),
  'AWS::EC2::Subnet': all(2 * S),
  'AWS::EC2::InternetGateway': all(1 * S),
  'AWS::EC2::VPCGatewayAttachment': all(2 * S),
  'AWS::EC2::RouteTable': all(1 * S),
  'AWS::EC2::Route': all(2 * S),
  'AWS::EC2::SubnetRouteTableAssociation': all(1 * S),
  'AWS::EC2::EIP': all(1 * S),
  'AWS::EC2::NatGateway': { create: 2 * MIN, update: 2 * S, delete: 1 * MIN },
  'AWS::EC2::SecurityGroup': all(2 * S),
  'AWS::EC2::SecurityGroupIngress': all(500),
  'AWS::EC2::SecurityGroupEgress': all(500),
  'AWS::EC2::VPCEndpoint': { create: 1 * MIN, update: 10 * S, delete: 1 * MIN },
};

/**
 * Containers and load balancers. Docs: a load balancer is `provisioning` before `active`,
 * usually a few minutes (ELB user guide, "Application Load Balancers"). Stack events: an ECS
 * service is complete once it reaches a steady state (its tasks running and healthy behind
 * the target group), a couple of minutes with default health checks, and drains as long on
 * delete; a cluster, task definition, target group, listener or rule takes a second.
 */
const CONTAINERS: Record<string, ActionTimes> = {
  'AWS::ECS::Cluster': all(2 * S),
  'AWS::ECS::TaskDefinition': all(1 * S),
  'AWS::ECS::Service': { create: 2 * MIN, update: 2 * MIN, delete: 1 * MIN },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': { create: 3 * MIN, update: 5 * S, delete: 10 * S },
  'AWS::ElasticLoadBalancingV2::TargetGroup': all(1 * S),
  'AWS::ElasticLoadBalancingV2::Listener': all(1 * S),
  'AWS::ElasticLoadBalancingV2::ListenerRule': all(1 * S),
  'AWS::Logs::LogStream': all(200),
};

/** API Gateway REST and HTTP: single calls; stack events show a deployment or a stage in a second or two. */
const APIS: Record<string, ActionTimes> = {
  'AWS::ApiGateway::RestApi': all(1 * S),
  'AWS::ApiGateway::Resource': all(500),
  'AWS::ApiGateway::Method': all(500),
  'AWS::ApiGateway::Deployment': all(2 * S),
  'AWS::ApiGateway::Stage': all(2 * S),
  'AWS::ApiGateway::Account': all(1 * S),
  'AWS::ApiGatewayV2::Api': all(1 * S),
  'AWS::ApiGatewayV2::Route': all(500),
  'AWS::ApiGatewayV2::Integration': all(500),
  'AWS::ApiGatewayV2::Stage': all(1 * S),
};

/**
 * The slow ones. Docs: a CloudFront distribution's change is deployed to every edge location
 * "typically within five minutes" (CloudFront developer guide), a delete first disables it
 * (another deploy). Docs: Route 53 changes reach every name server within 60 s (INSYNC). Stack
 * events: an RDS instance or an ElastiCache replication group takes five to fifteen minutes
 * to create, an Aurora cluster about five.
 */
const SLOW: Record<string, ActionTimes> = {
  'AWS::CloudFront::Distribution': { create: 5 * MIN, update: 5 * MIN, delete: 10 * MIN },
  'AWS::Route53::RecordSet': all(1 * MIN),
  'AWS::RDS::DBInstance': { create: 10 * MIN, update: 5 * MIN, delete: 5 * MIN },
  'AWS::RDS::DBCluster': { create: 5 * MIN, update: 2 * MIN, delete: 3 * MIN },
  'AWS::RDS::DBSubnetGroup': all(1 * S),
  'AWS::ElastiCache::ReplicationGroup': { create: 10 * MIN, update: 5 * MIN, delete: 5 * MIN },
};

/**
 * What a user on AWS sees, per type (propagation windows included), the round trip of one
 * call, and Cloud Control's own time. Cloud Control runs the type's CloudFormation handler:
 * a request is IN_PROGRESS for the handler's start and its stabilization checks on top of the
 * service's own time. The one published side-by-side we know (pulumi/pulumi-aws-native#217:
 * an S3 bucket, about 30 s from CreateResource to SUCCESS against a few seconds through the
 * S3 API) is an upper figure; 3 s per request is our conservative estimate. cdkd's polling
 * of GetResourceRequestStatus (1 s, ×1.5, ≤ 10 s, spec 003) is the client's, not the
 * profile's: it is what the engine really does, and the benches measure it.
 */
export const AWS_PROFILE: LatencyProfile = {
  types: { ...SINGLE_CALL, ...STORAGE, ...SERVERLESS, ...NETWORK, ...CONTAINERS, ...APIS, ...SLOW },
  operations: {},
  // An in-region HTTPS call to an AWS API, connection reused.
  callMs: 30,
  cloudControl: all(3 * S),
  // A type not listed: a single call and a short stabilization.
  fallback: all(1 * S),
};
