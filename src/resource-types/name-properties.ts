import { foldAscii } from './identifiers.js';

/** How one type carries its physical name: what name-holder matching needs to know. */
export interface NameProperty {
  /** Where the name sits in the properties, e.g. `['TableInput', 'Name']`. */
  path: readonly string[];
  /** The property naming the parent the name is unique under, and its value when absent. */
  parent?: { property: string; absent?: string; normalize?: (value: string) => string };
  /** Types sharing one namespace of names; a Type change between namespaces shares no names. */
  namespace: string;
  /** How the service compares names; exact when absent. */
  fold?: (name: string) => string;
  /** The name (and parent, where the id carries it) a physical id names; the id itself when absent. */
  fromId?: (physicalId: string) => { name?: string; parent?: string };
  /**
   * The provider turns even an explicit name into another before sending it (a stack-name
   * prefix and a character rewrite), so only the physical id can show the name sent.
   */
  rewritesName?: boolean;
}

const lower = (name: string): string => name.toLowerCase();
const lastAfter =
  (separator: string) =>
  (id: string): { name?: string } => ({ name: id.slice(id.lastIndexOf(separator) + 1) });

/** `arn:...:loadbalancer/app/<name>/<id>`, `arn:...:targetgroup/<name>/<id>`. */
function elbv2Name(id: string): { name?: string } {
  if (!id.startsWith('arn:')) return { name: id };
  const parts = id.split(':').slice(5).join(':').split('/');
  return { name: parts.length >= 3 ? parts[parts.length - 2] : undefined };
}

/** `arn:...:secret:<name>-AbCdEf`: Secrets Manager appends six random characters. */
function secretName(id: string): { name?: string } {
  if (!id.startsWith('arn:')) return { name: id };
  const match = /:secret:(.+)-[A-Za-z0-9]{6}$/.exec(id);
  return { name: match?.[1] };
}

/** `<bus>|<rule>` for a rule on a custom bus, the rule name otherwise. */
function ruleName(id: string): { name?: string; parent?: string } {
  const bar = id.indexOf('|');
  return bar < 0 ? { name: id } : { parent: id.slice(0, bar), name: id.slice(bar + 1) };
}

const busName = (value: string): string => value.slice(value.lastIndexOf('/') + 1);
const dnsName = (name: string): string => name.toLowerCase().replace(/\.$/, '');
const zoneId = (value: string): string => value.replace(/^\/?hostedzone\//, '');

/** IAM names are unique regardless of case; the provider prefixes and rewrites them. */
const iam = (property: string): NameProperty => ({
  path: [property],
  namespace: property,
  fold: lower,
  rewritesName: true,
});

/** RDS, DocumentDB and Neptune share one namespace of identifiers, compared regardless of case. */
const dbCluster: NameProperty = { path: ['DBClusterIdentifier'], namespace: 'db-cluster', fold: lower };
const dbInstance: NameProperty = { path: ['DBInstanceIdentifier'], namespace: 'db-instance', fold: lower };

/** The name property of each type cdkd knows; a type missing here makes a name collision a refusal. */
export const NAME_PROPERTIES: Readonly<Record<string, NameProperty>> = {
  'AWS::SQS::Queue': { path: ['QueueName'], namespace: 'sqs-queue', fromId: lastAfter('/') },
  'AWS::SNS::Topic': { path: ['TopicName'], namespace: 'sns-topic', fromId: lastAfter(':') },
  'AWS::S3::Bucket': { path: ['BucketName'], namespace: 's3-bucket' },
  'AWS::DynamoDB::Table': { path: ['TableName'], namespace: 'dynamodb-table' },
  'AWS::Lambda::Function': { path: ['FunctionName'], namespace: 'lambda-function' },
  'AWS::Logs::LogGroup': { path: ['LogGroupName'], namespace: 'log-group' },
  'AWS::IAM::Role': iam('RoleName'),
  'AWS::IAM::User': iam('UserName'),
  'AWS::IAM::Group': iam('GroupName'),
  'AWS::IAM::InstanceProfile': iam('InstanceProfileName'),
  'AWS::IAM::ManagedPolicy': { ...iam('ManagedPolicyName'), fromId: lastAfter('/') },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': {
    path: ['Name'],
    namespace: 'elbv2-load-balancer',
    rewritesName: true,
    fromId: elbv2Name,
  },
  'AWS::ElasticLoadBalancingV2::TargetGroup': {
    path: ['Name'],
    namespace: 'elbv2-target-group',
    rewritesName: true,
    fromId: elbv2Name,
  },
  'AWS::Events::Rule': {
    path: ['Name'],
    namespace: 'events-rule',
    parent: { property: 'EventBusName', absent: 'default', normalize: busName },
    fromId: ruleName,
  },
  'AWS::Events::EventBus': { path: ['Name'], namespace: 'event-bus' },
  'AWS::ECS::Cluster': { path: ['ClusterName'], namespace: 'ecs-cluster' },
  'AWS::CloudWatch::Alarm': { path: ['AlarmName'], namespace: 'cloudwatch-alarm' },
  'AWS::StepFunctions::StateMachine': {
    path: ['StateMachineName'],
    namespace: 'state-machine',
    fromId: lastAfter(':'),
  },
  'AWS::Glue::Table': {
    path: ['TableInput', 'Name'],
    namespace: 'glue-table',
    parent: { property: 'DatabaseName', normalize: foldAscii },
    fold: foldAscii,
  },
  'AWS::SecretsManager::Secret': { path: ['Name'], namespace: 'secret', fromId: secretName },
  'AWS::KMS::Alias': { path: ['AliasName'], namespace: 'kms-alias' },
  'AWS::SSM::Parameter': { path: ['Name'], namespace: 'ssm-parameter' },
  'AWS::Route53::RecordSet': {
    path: ['Name'],
    namespace: 'route53-record',
    parent: { property: 'HostedZoneId', normalize: zoneId },
    fold: dnsName,
  },
  'AWS::RDS::DBCluster': dbCluster,
  'AWS::DocDB::DBCluster': dbCluster,
  'AWS::Neptune::DBCluster': dbCluster,
  'AWS::RDS::DBInstance': dbInstance,
  'AWS::DocDB::DBInstance': dbInstance,
  'AWS::Neptune::DBInstance': dbInstance,
};

export function nameProperty(type: string): NameProperty | undefined {
  return NAME_PROPERTIES[type];
}

/** The value at `path` in `properties`, or undefined. */
export function readPath(properties: Record<string, unknown> | undefined, path: readonly string[]): unknown {
  let value: unknown = properties;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
