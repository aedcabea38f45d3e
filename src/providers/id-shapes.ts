import { schemaFor } from '../resource-types/index.js';
import type { ProviderKind } from './provider.js';

/**
 * The shape of the physical id cdkd records for a resource type: what `cdkd import` checks
 * an id against before it reads the resource. A Cloud Control resource is recorded under its
 * schema's primary identifier (the values joined by `|`), so its shape is derived from the
 * resource index; an SDK provider records what CloudFormation's Ref returns, listed below.
 * Examples spell the stack's partition, region and account as `{partition}`, `{region}`,
 * `{account}`.
 */
export type IdShape =
  /** A name the user chose: never an ARN or a URL; `pattern` where the service says which characters. */
  | { kind: 'name'; what: string; pattern?: RegExp; example: string }
  /** An ARN of `service`, its resource part starting with `resource` where given. */
  | { kind: 'arn'; what: string; service?: string; resource?: string; example: string }
  | { kind: 'url'; what: string; pattern: RegExp; example: string; tip?: string }
  /** An id AWS mints (`subnet-0a1b...`, a key's UUID). */
  | { kind: 'generated'; what: string; pattern: RegExp; example: string }
  /** Cloud Control's compound identifier: one value per name, joined by `|`. */
  | { kind: 'parts'; names: readonly string[] }
  /**
   * Nothing known of its shape (a custom resource's id is whatever its handler answered),
   * except that an ARN given for it is one of `service` where the index names it.
   */
  | { kind: 'any'; service?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A name cdkd generates for a resource with no name of its own (a policy, a permission). */
const generatedName = (what: string): IdShape => ({
  kind: 'name',
  what,
  example: 'MyStack-Resource-1A2B3C4D',
});
const iamName = (what: string): IdShape => ({
  kind: 'name',
  what: `the ${what}'s name`,
  pattern: /^[\w+=,.@-]{1,128}$/,
  example: `my-${what.replaceAll(' ', '-')}`,
});
const lambdaArn = (what: string, resource: string, example: string): IdShape => ({
  kind: 'arn',
  what: `the ${what}'s ARN`,
  service: 'lambda',
  resource,
  example: `arn:{partition}:lambda:{region}:{account}:${example}`,
});

/** An id EC2 mints: its kind's prefix and 8 or 17 hex digits. */
function ec2Id(prefix: string, what: string): IdShape {
  return {
    kind: 'generated',
    what,
    pattern: new RegExp(`^${prefix}-[0-9a-f]{8,17}$`),
    example: `${prefix}-0123456789abcdef0`,
  };
}

/** What each SDK provider records as the physical id (CloudFormation's Ref), by type. */
export const SDK_ID_SHAPES: Readonly<Record<string, IdShape>> = {
  'AWS::IAM::Role': iamName('role'),
  'AWS::IAM::User': iamName('user'),
  'AWS::IAM::Group': iamName('group'),
  'AWS::IAM::InstanceProfile': iamName('instance profile'),
  'AWS::IAM::Policy': generatedName('the id cdkd gave the inline policy'),
  'AWS::IAM::ManagedPolicy': {
    kind: 'arn',
    what: "the managed policy's ARN",
    service: 'iam',
    resource: 'policy/',
    example: 'arn:{partition}:iam::{account}:policy/my-policy',
  },
  'AWS::Logs::LogGroup': {
    kind: 'name',
    what: "the log group's name",
    pattern: /^[\w./#-]{1,512}$/,
    example: '/my/log-group',
  },
  'AWS::Logs::MetricFilter': {
    kind: 'name',
    what: "the filter's name",
    pattern: /^[^:*]{1,512}$/,
    example: 'my-filter',
  },
  'AWS::Logs::SubscriptionFilter': {
    kind: 'name',
    what: "the filter's name",
    pattern: /^[^:*]{1,512}$/,
    example: 'my-filter',
  },
  'AWS::DynamoDB::Table': {
    kind: 'name',
    what: "the table's name",
    pattern: /^[\w.-]{3,255}$/,
    example: 'my-table',
  },
  'AWS::SSM::Parameter': {
    kind: 'name',
    what: "the parameter's name",
    pattern: /^[\w./-]{1,2048}$/,
    example: '/my/parameter',
  },
  'AWS::KMS::Key': {
    kind: 'generated',
    what: "the key's id (a UUID, or mrk- and 32 hex digits)",
    pattern: /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32})$/,
    example: '1234abcd-12ab-34cd-56ef-1234567890ab',
  },
  'AWS::KMS::Alias': {
    kind: 'name',
    what: "the alias's name (alias/...)",
    pattern: /^alias\/[\w/-]{1,250}$/,
    example: 'alias/my-key',
  },
  'AWS::SecretsManager::Secret': {
    kind: 'arn',
    what: "the secret's ARN",
    service: 'secretsmanager',
    resource: 'secret:',
    example: 'arn:{partition}:secretsmanager:{region}:{account}:secret:my-secret-AbCdEf',
  },
  'AWS::Events::EventBus': {
    kind: 'name',
    what: "the event bus's name",
    pattern: /^[\w./-]{1,256}$/,
    example: 'my-bus',
  },
  'AWS::Events::Rule': {
    kind: 'arn',
    what: "the rule's ARN",
    service: 'events',
    resource: 'rule/',
    example: 'arn:{partition}:events:{region}:{account}:rule/my-rule',
  },
  'AWS::SQS::Queue': {
    kind: 'url',
    what: "the queue's URL",
    pattern: /^https?:\/\/[^/\s]+\/\d{12}\/[\w-]{1,80}(\.fifo)?$/,
    example: 'https://sqs.{region}.amazonaws.com/{account}/my-queue',
    tip: 'aws sqs get-queue-url --queue-name <name> prints it',
  },
  'AWS::SQS::QueuePolicy': generatedName('the id cdkd gave the queue policy'),
  'AWS::SNS::Topic': {
    kind: 'arn',
    what: "the topic's ARN",
    service: 'sns',
    example: 'arn:{partition}:sns:{region}:{account}:my-topic',
  },
  'AWS::SNS::Subscription': {
    kind: 'arn',
    what: "the subscription's ARN",
    service: 'sns',
    example: 'arn:{partition}:sns:{region}:{account}:my-topic:1234abcd-12ab-34cd-56ef-1234567890ab',
  },
  'AWS::SNS::TopicPolicy': generatedName('the id cdkd gave the topic policy'),
  'AWS::S3::Bucket': {
    kind: 'name',
    what: "the bucket's name",
    pattern: /^[\w.-]{3,255}$/,
    example: 'my-bucket',
  },
  'AWS::S3::BucketPolicy': {
    kind: 'name',
    what: 'the name of the bucket it is the policy of',
    pattern: /^[\w.-]{3,255}$/,
    example: 'my-bucket',
  },
  'AWS::Lambda::Function': {
    kind: 'name',
    what: "the function's name",
    pattern: /^[\w-]{1,64}$/,
    example: 'my-function',
  },
  'AWS::Lambda::Permission': generatedName('the statement id of the permission'),
  'AWS::Lambda::Version': lambdaArn('version', 'function:', 'function:my-function:1'),
  'AWS::Lambda::Alias': lambdaArn('alias', 'function:', 'function:my-function:live'),
  'AWS::Lambda::LayerVersion': lambdaArn('layer version', 'layer:', 'layer:my-layer:1'),
  'AWS::Lambda::Url': lambdaArn('function', 'function:', 'function:my-function'),
  'AWS::Lambda::EventSourceMapping': {
    kind: 'generated',
    what: "the mapping's UUID",
    pattern: UUID,
    example: '1234abcd-12ab-34cd-56ef-1234567890ab',
  },
  'AWS::Lambda::EventInvokeConfig': { kind: 'parts', names: ['FunctionName', 'Qualifier'] },
  'AWS::CloudWatch::Alarm': { kind: 'name', what: "the alarm's name", example: 'my-alarm' },
  'AWS::EC2::Subnet': ec2Id('subnet', "the subnet's id"),
  'AWS::EC2::VPC': ec2Id('vpc', "the VPC's id"),
  'AWS::EC2::InternetGateway': ec2Id('igw', "the internet gateway's id"),
  'AWS::EC2::VPCGatewayAttachment': { kind: 'parts', names: ['AttachmentType', 'VpcId'] },
  'AWS::EC2::RouteTable': ec2Id('rtb', "the route table's id"),
  'AWS::EC2::Route': { kind: 'parts', names: ['RouteTableId', 'CidrBlock'] },
  'AWS::EC2::SubnetRouteTableAssociation': ec2Id('rtbassoc', "the association's id"),
  'AWS::EC2::EIP': {
    kind: 'generated',
    what: "the address's public IPv4 address",
    pattern: /^\d{1,3}(\.\d{1,3}){3}$/,
    example: '3.5.140.2',
  },
  'AWS::EC2::NatGateway': ec2Id('nat', "the NAT gateway's id"),
  'AWS::EC2::SecurityGroup': ec2Id('sg', "the security group's id"),
  'AWS::EC2::SecurityGroupIngress': ec2Id('sgr', "the security group rule's id"),
  'AWS::EC2::SecurityGroupEgress': ec2Id('sgr', "the security group rule's id"),
  'AWS::EC2::VPCEndpoint': ec2Id('vpce', "the endpoint's id"),
  'AWS::ApiGateway::RestApi': {
    kind: 'generated',
    what: "the REST API's id",
    pattern: /^[a-z0-9]{10}$/,
    example: 'a1b2c3d4e5',
  },
  'AWS::ApiGateway::Resource': {
    kind: 'generated',
    what: "the resource's id",
    pattern: /^[a-z0-9]{6,10}$/,
    example: 'abc123',
  },
  'AWS::ApiGateway::Method': { kind: 'parts', names: ['RestApiId', 'ResourceId', 'HttpMethod'] },
  'AWS::ApiGateway::Deployment': {
    kind: 'generated',
    what: "the deployment's id",
    pattern: /^[a-z0-9]{6,10}$/,
    example: 'abc123',
  },
  'AWS::ApiGateway::Stage': {
    kind: 'name',
    what: "the stage's name",
    pattern: /^[a-zA-Z0-9_-]{1,128}$/,
    example: 'prod',
  },
  'AWS::ECS::Cluster': { kind: 'name', what: "the cluster's name", example: 'my-cluster' },
  'AWS::ECS::TaskDefinition': {
    kind: 'arn',
    what: "the task definition revision's ARN",
    service: 'ecs',
    resource: 'task-definition/',
    example: 'arn:{partition}:ecs:{region}:{account}:task-definition/my-task:1',
  },
  'AWS::ECS::Service': {
    kind: 'arn',
    what: "the service's ARN",
    service: 'ecs',
    resource: 'service/',
    example: 'arn:{partition}:ecs:{region}:{account}:service/my-cluster/my-service',
  },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': {
    kind: 'arn',
    what: "the load balancer's ARN",
    service: 'elasticloadbalancing',
    resource: 'loadbalancer/',
    example:
      'arn:{partition}:elasticloadbalancing:{region}:{account}:loadbalancer/app/my-lb/50dc6c495c0c9188',
  },
  'AWS::ElasticLoadBalancingV2::TargetGroup': {
    kind: 'arn',
    what: "the target group's ARN",
    service: 'elasticloadbalancing',
    resource: 'targetgroup/',
    example: 'arn:{partition}:elasticloadbalancing:{region}:{account}:targetgroup/my-tg/73e2d6bc24d8a067',
  },
  'AWS::ElasticLoadBalancingV2::Listener': {
    kind: 'arn',
    what: "the listener's ARN",
    service: 'elasticloadbalancing',
    resource: 'listener/',
    example:
      'arn:{partition}:elasticloadbalancing:{region}:{account}:listener/app/my-lb/50dc6c495c0c9188/f2f7dc8efc522ab2',
  },
  'AWS::ElasticLoadBalancingV2::ListenerRule': {
    kind: 'arn',
    what: "the listener rule's ARN",
    service: 'elasticloadbalancing',
    resource: 'listener-rule/',
    example:
      'arn:{partition}:elasticloadbalancing:{region}:{account}:listener-rule/app/my-lb/50dc6c495c0c9188/f2f7dc8efc522ab2/9683b2d02a6cabee',
  },
  'AWS::StepFunctions::StateMachine': {
    kind: 'arn',
    what: "the state machine's ARN",
    service: 'states',
    resource: 'stateMachine:',
    example: 'arn:{partition}:states:{region}:{account}:stateMachine:my-machine',
  },
  'AWS::ApiGatewayV2::Api': {
    kind: 'generated',
    what: "the API's id",
    pattern: /^[a-z0-9]{10}$/,
    example: 'a1b2c3d4e5',
  },
  'AWS::ApiGatewayV2::Route': {
    kind: 'generated',
    what: "the route's id",
    pattern: /^[a-z0-9]{7}$/,
    example: 'a1b2c3d',
  },
  'AWS::ApiGatewayV2::Integration': {
    kind: 'generated',
    what: "the integration's id",
    pattern: /^[a-z0-9]{7}$/,
    example: 'a1b2c3d',
  },
  'AWS::ApiGatewayV2::Stage': {
    kind: 'name',
    what: "the stage's name",
    pattern: /^(\$default|[\w-]{1,128})$/,
    example: 'prod',
  },
};

/** Types whose id is a bucket's name: the ones that could name cdkd's own buckets. */
export const BUCKET_ID_TYPES: ReadonlySet<string> = new Set(['AWS::S3::Bucket', 'AWS::S3::BucketPolicy']);

/** Types whose ids are one namespace across regions though the index has no ARN to say so. */
const GLOBAL_WITHOUT_ARN: ReadonlySet<string> = new Set(['AWS::S3::BucketPolicy']);

/** The shape of the id cdkd records for `type` when `provisionedBy` made it. */
export function idShapeOf(type: string, provisionedBy: ProviderKind): IdShape {
  if (provisionedBy === 'sdk' && Object.hasOwn(SDK_ID_SHAPES, type)) return SDK_ID_SHAPES[type]!;
  return derivedShape(type);
}

/**
 * Cloud Control's identifier, as far as the index can say: an ARN where the identifier
 * property is one (of the service its ARN template names), a URL where it is one, a name
 * where it is one; several properties, that many `|`-joined values.
 */
function derivedShape(type: string): IdShape {
  const schema = schemaFor(type);
  const id = schema?.primaryIdentifier ?? [];
  if (id.length > 1) return { kind: 'parts', names: id };
  const service = arnTemplateService(schema?.arnTemplate);
  const property = id[0];
  if (property === undefined) return { kind: 'any', ...(service !== undefined && { service }) };
  const what = `its ${property}`;
  if (/arn$/i.test(property)) {
    return {
      kind: 'arn',
      what,
      ...(service !== undefined && { service }),
      example:
        exampleOfTemplate(schema?.arnTemplate) ??
        `arn:{partition}:${service ?? '<service>'}:{region}:{account}:<resource>`,
    };
  }
  if (/url$/i.test(property)) {
    return {
      kind: 'url',
      what: `a URL (its ${property})`,
      pattern: /^https?:\/\/\S+$/,
      example: `https://<${property}>`,
    };
  }
  if (/name$/i.test(property)) return { kind: 'name', what, example: `<${property}>` };
  return { kind: 'any', ...(service !== undefined && { service }) };
}

/** The service an ARN template names literally (`arn:${Partition}:sns:...` → `sns`). */
function arnTemplateService(template: string | undefined): string | undefined {
  const service = template?.split(':')[2];
  return service !== undefined && service !== '' && !service.includes('$') ? service : undefined;
}

function exampleOfTemplate(template: string | undefined): string | undefined {
  if (template === undefined || arnTemplateService(template) === undefined) return undefined;
  return template
    .replaceAll('${Partition}', '{partition}')
    .replaceAll('${Region}', '{region}')
    .replaceAll('${Account}', '{account}')
    .replace(/\$\{(\w+)\}/g, '<$1>');
}

/** Why `id` is not of `shape`, as a clause ("it is a sqs ARN"), or undefined when it is. */
export function idShapeProblem(shape: IdShape, id: string): string | undefined {
  if (id === '') return 'it is empty';
  const arn = parseArn(id);
  if (shape.kind === 'any') {
    return arn && shape.service !== undefined && arn.service !== shape.service
      ? `it is a ${arn.service} ARN`
      : undefined;
  }
  if (shape.kind === 'parts') {
    const count = id.split('|').length;
    if (count === shape.names.length && !id.split('|').includes('')) return undefined;
    return `it has ${count} of the ${shape.names.length} values ${shape.names.join('|')} joined by |`;
  }
  if (shape.kind === 'arn') {
    if (!arn) return 'it is not an ARN';
    if (shape.service !== undefined && arn.service !== shape.service) return `it is a ${arn.service} ARN`;
    if (shape.resource !== undefined && !arn.resource.startsWith(shape.resource))
      return `its resource part does not start with ${shape.resource}`;
    return undefined;
  }
  if (arn) return `it is a ${arn.service} ARN`;
  if (shape.kind === 'url') return shape.pattern.test(id) ? undefined : `it cannot be ${shape.what}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(id)) return 'it is a URL';
  if (shape.pattern && !shape.pattern.test(id)) return `it cannot be ${shape.what}`;
  return undefined;
}

/** `arn:partition:service:region:account:resource`, the resource part possibly holding `:`. */
function parseArn(id: string): { service: string; resource: string } | undefined {
  const parts = id.split(':');
  if (parts[0] !== 'arn' || parts.length < 6 || !parts[1] || !parts[2]) return undefined;
  return { service: parts[2], resource: parts.slice(5).join(':') };
}

/** What an id of `shape` is, in words: "the queue's URL". */
export function describeIdShape(shape: IdShape): string {
  if (shape.kind === 'any') return 'any id';
  if (shape.kind === 'parts') return `${shape.names.join('|')} (its values joined by |)`;
  return shape.what;
}

/** An id of `shape` in the stack's partition, region and account, for a hint. */
export function exampleId(
  shape: IdShape,
  where: { partition: string; region: string; accountId: string },
): string | undefined {
  if (shape.kind === 'any') return undefined;
  const example = shape.kind === 'parts' ? shape.names.map((name) => `<${name}>`).join('|') : shape.example;
  return example
    .replaceAll('{partition}', where.partition)
    .replaceAll('{region}', where.region)
    .replaceAll('{account}', where.accountId);
}

/**
 * Whether one id of `type` names the same resource in every region (an S3 bucket, an IAM
 * role): its ARN names no region. Otherwise two records match only in the same region.
 */
export function idIsGlobal(type: string): boolean {
  if (GLOBAL_WITHOUT_ARN.has(type)) return true;
  const template = schemaFor(type)?.arnTemplate;
  return template !== undefined && template.split(':')[3] === '';
}
