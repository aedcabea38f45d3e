import { randomUUID } from 'node:crypto';
import { defaultVpc } from '../../account/default-vpc.js';
import { randomBytesPooled, randomString } from '../../ids.js';
import { HandlerError, type ResourceModel } from '../../resources.js';
import type { SandboxTypeSchema } from '../../resource-index.js';
import type { TaskDefinitionRevisions } from './task-definition-revisions.js';

export interface Environment {
  accountId: string;
  region: string;
  /** Where task definitions' revision numbers come from. */
  revisions: Pick<TaskDefinitionRevisions, 'next'>;
}

/**
 * A new resource of a type no service module emulates: the desired state checked against
 * the schema, a name generated CloudFormation-style when the type has a name property and
 * none was given, and every read-only attribute filled with a plausible value.
 */
export function buildModel(
  type: string,
  schema: SandboxTypeSchema,
  desired: ResourceModel,
  env: Environment,
): { identifier: string; model: ResourceModel } {
  validateDesired(schema, desired);
  const model: ResourceModel = structuredClone(desired);
  const nameKey = nameProperty(type, schema);
  if (nameKey !== undefined && typeof model[nameKey] !== 'string') model[nameKey] = generatedName(type);
  const facts = { type, schema, env, name: nameKey ? String(model[nameKey]) : undefined };
  for (const path of fillablePaths(schema, model)) {
    if (getPath(model, path) === undefined) setPath(model, path, fakeAttribute(path, model, facts));
  }
  for (const part of schema.id ?? []) {
    if (model[part] === undefined) model[part] = `${shortName(type).toLowerCase()}-${hex(8)}`;
  }
  return { identifier: identifierOf(schema, model), model };
}

/** The desired state of an update applied over the old model: read-only values are kept. */
export function updatedModel(
  schema: SandboxTypeSchema,
  old: ResourceModel,
  desired: ResourceModel,
): ResourceModel {
  validateDesired(schema, desired);
  refuseCreateOnlyChanges(schema, old, desired);
  const model: ResourceModel = structuredClone(desired);
  for (const path of schema.attrs ?? []) {
    const value = getPath(old, path);
    if (value !== undefined && getPath(model, path) === undefined)
      setPath(model, path, structuredClone(value));
  }
  for (const part of schema.id ?? []) model[part] ??= old[part];
  return model;
}

/** Fails NotUpdatable, as Cloud Control does, when the update changes a create-only property. */
export function refuseCreateOnlyChanges(
  schema: SandboxTypeSchema,
  old: ResourceModel,
  desired: ResourceModel,
): void {
  const changed = (schema.replace ?? []).filter(
    (property) => JSON.stringify(old[property]) !== JSON.stringify(desired[property]),
  );
  if (changed.length > 0) {
    throw new HandlerError(
      'NotUpdatable',
      `Invalid patch update: createOnlyProperties [${changed.map((p) => `/properties/${p}`).join(', ')}] cannot be updated`,
    );
  }
}

/** The Cloud Control identifier: the primary identifier's values, joined with `|`. */
export function identifierOf(schema: SandboxTypeSchema, model: ResourceModel): string {
  return (schema.id ?? []).map((part) => String(model[part])).join('|');
}

/** Fails InvalidRequest, as Cloud Control's schema check does, on an unknown or missing property. */
export function validateDesired(schema: SandboxTypeSchema, desired: ResourceModel): void {
  const known = new Set(schema.props);
  const extraneous = Object.keys(desired).filter((key) => !known.has(key));
  if (extraneous.length > 0) {
    throw new HandlerError(
      'InvalidRequest',
      `Model validation failed (#: extraneous key [${extraneous[0]}] is not permitted)`,
    );
  }
  const missing = (schema.required ?? []).filter((key) => desired[key] === undefined);
  if (missing.length > 0) {
    throw new HandlerError(
      'InvalidRequest',
      `Model validation failed (#: required key [${missing[0]}] not found)`,
    );
  }
}

/**
 * The read-only paths to fill: leaves only (`Endpoint.Address`, not `Endpoint`), and a
 * nested one only below a read-only parent or a parent the desired state set.
 */
function fillablePaths(schema: SandboxTypeSchema, model: ResourceModel): string[] {
  const attrs = schema.attrs ?? [];
  return attrs.filter((path) => {
    if (attrs.some((other) => other.startsWith(`${path}.`))) return false;
    const top = path.split('.')[0]!;
    return top === path || attrs.includes(top) || model[top] !== undefined;
  });
}

/**
 * The property that names the resource: a writable single-part primary identifier
 * (RoleName, TableName, LogGroupName), else `<Type>Name` (QueueName, TopicName).
 */
function nameProperty(type: string, schema: SandboxTypeSchema): string | undefined {
  const writable = (name: string): boolean => schema.props.includes(name);
  const id = schema.id ?? [];
  if (id.length === 1 && writable(id[0]!) && !(schema.attrs ?? []).includes(id[0]!)) return id[0];
  const typeName = `${shortName(type)}Name`;
  return writable(typeName) ? typeName : undefined;
}

/** CloudFormation's shape for a generated physical name: a prefix and 12 random characters. */
export function generatedName(type: string): string {
  const name = `${shortName(type)}-${randomString(12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
  return LOWER_CASE_NAMES.has(type) ? name.toLowerCase() : name;
}

/** Types whose names AWS accepts in lower case only (CloudFormation generates them so). */
const LOWER_CASE_NAMES: ReadonlySet<string> = new Set(['AWS::ECR::Repository']);

interface Facts {
  type: string;
  schema: SandboxTypeSchema;
  env: Environment;
  name: string | undefined;
}

function fakeAttribute(path: string, model: ResourceModel, facts: Facts): unknown {
  const leaf = path.slice(path.lastIndexOf('.') + 1);
  // An interface endpoint's DNS entries are `<hosted zone id>:<dns name>`.
  if (facts.type === 'AWS::EC2::VPCEndpoint' && path === 'DnsEntries') {
    return [`Z7HUB22UULQXV:vpce-${hex(8)}.${String(model.ServiceName ?? 'service')}.vpce.amazonaws.com`];
  }
  if (facts.schema.listAttrs?.includes(path)) {
    // None at creation: a VPC's come from its VPCCidrBlocks, made later (derived-attributes.ts).
    if (/Ipv6CidrBlocks$/.test(leaf)) return [];
    return [fakeScalar(leaf.replace(/s$/, ''), model, facts)];
  }
  return fakeScalar(leaf, model, facts);
}

/**
 * ARNs and names the schemas give no template for, in the shape AWS returns them, for
 * types whose ARNs CDK templates take apart with Fn::Split / Fn::Select.
 */
const SHAPED_ATTRIBUTES: Readonly<
  Record<string, Record<string, (model: ResourceModel, env: Environment, name: string) => string>>
> = {
  'AWS::Lambda::Alias': {
    AliasArn: (model, env) =>
      `arn:${partition(env.region)}:lambda:${env.region}:${env.accountId}:function:${String(model.FunctionName)}:${String(model.Name)}`,
  },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': {
    LoadBalancerArn: (model, env, name) => {
      const kind = model.Type === 'network' ? 'net' : model.Type === 'gateway' ? 'gwy' : 'app';
      return `arn:${partition(env.region)}:elasticloadbalancing:${env.region}:${env.accountId}:loadbalancer/${kind}/${nameOr(model, name)}/${hex(8)}`;
    },
    LoadBalancerFullName: (model) => String(model.LoadBalancerArn).split(':loadbalancer/')[1]!,
    LoadBalancerName: (model, _env, name) => nameOr(model, name),
    // ELB's DNS names: `<name>-<digits>.<region>.elb.amazonaws.com` for an application load
    // balancer, `<name>-<hex>.elb.<region>.amazonaws.com` for a network one.
    DNSName: (model, env, name) => {
      const lb = nameOr(model, name);
      return model.Type === 'network'
        ? `${lb}-${hex(8)}.elb.${env.region}.amazonaws.com`
        : `${lb}-${String(parseInt(hex(4), 16)).padStart(10, '1')}.${env.region}.elb.amazonaws.com`;
    },
    // Route 53's alias target zone for load balancers in us-east-1, as AWS returns it.
    CanonicalHostedZoneID: (model) => (model.Type === 'network' ? 'Z26RNL4JYFTOTI' : 'Z35SXDOTRQ7X7K'),
  },
  'AWS::ElasticLoadBalancingV2::Listener': {
    ListenerArn: (model, env) =>
      `arn:${partition(env.region)}:elasticloadbalancing:${env.region}:${env.accountId}:listener/${loadBalancerPart(model.LoadBalancerArn)}/${hex(8)}`,
  },
  'AWS::ElasticLoadBalancingV2::ListenerRule': {
    RuleArn: (model, env) =>
      `arn:${partition(env.region)}:elasticloadbalancing:${env.region}:${env.accountId}:listener-rule/${loadBalancerPart(model.ListenerArn)}/${hex(8)}/${hex(8)}`,
  },
  // A security group's Ref (Id) is its group id, as CloudFormation returns it.
  // A group made without VpcId is in the region's default VPC.
  'AWS::EC2::SecurityGroup': {
    Id: (model) => String(model.GroupId),
    VpcId: (_model, env) => defaultVpc(env.accountId, env.region).vpcId,
  },
  // A global table's Arn and StreamArn are its replica's in this region, as for a table:
  // grants and event sources built from them must name `table/<name>`.
  'AWS::DynamoDB::GlobalTable': {
    Arn: (model, env, name) => dynamoTableArn(model, env, name),
    StreamArn: (model, env, name) => `${dynamoTableArn(model, env, name)}/stream/${new Date().toISOString()}`,
  },
  // API Gateway's ids are 10 lower-case characters, and an HTTP or WebSocket API's endpoint is
  // built from its id (the endpoint is filled first, so it makes the id it names).
  'AWS::ApiGateway::RestApi': {
    RestApiId: () => apiGatewayId(),
    RootResourceId: () => lowerAlphanumeric(10),
  },
  // The ids of an API's parts, as short as AWS makes them (they reach handlers' events).
  'AWS::ApiGateway::Resource': { ResourceId: () => lowerAlphanumeric(6) },
  'AWS::ApiGateway::Deployment': { DeploymentId: () => lowerAlphanumeric(6) },
  'AWS::ApiGateway::Authorizer': { AuthorizerId: () => lowerAlphanumeric(6) },
  'AWS::ApiGatewayV2::Route': { RouteId: () => lowerAlphanumeric(7) },
  'AWS::ApiGatewayV2::Integration': { IntegrationId: () => lowerAlphanumeric(7) },
  'AWS::ApiGatewayV2::Authorizer': { AuthorizerId: () => lowerAlphanumeric(6) },
  'AWS::ApiGatewayV2::Deployment': { DeploymentId: () => lowerAlphanumeric(6) },
  'AWS::ApiGatewayV2::Api': {
    ApiId: () => apiGatewayId(),
    ApiEndpoint: (model, env) => {
      model.ApiId ??= apiGatewayId();
      const scheme = model.ProtocolType === 'WEBSOCKET' ? 'wss' : 'https';
      return `${scheme}://${String(model.ApiId)}.execute-api.${env.region}.amazonaws.com`;
    },
  },
  'AWS::EC2::Subnet': { AvailabilityZone: (_model, env) => `${env.region}a` },
  // CloudFront's ids: E and 13 upper-case letters and digits; its domain names: d....cloudfront.net.
  'AWS::CloudFront::Distribution': {
    Id: () => `E${randomString(13, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
    DomainName: () => `d${randomString(13, 'abcdefghijklmnopqrstuvwxyz0123456789')}.cloudfront.net`,
  },
  // Route 53 zone ids are Z and upper-case letters and digits; name servers are AWS's own.
  'AWS::Route53::HostedZone': {
    Id: () => `Z${randomString(20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
    NameServer: () => `ns-${randomString(4, '0123456789')}.awsdns-${randomString(2, '0123456789')}.org`,
  },
  'AWS::ECR::Repository': {
    RepositoryUri: (model, env) =>
      `${env.accountId}.dkr.ecr.${env.region}.amazonaws.com/${String(model.RepositoryName)}`,
  },
  // An address is a public IPv4 address; an attachment's type names the kind of gateway.
  'AWS::EC2::EIP': {
    PublicIp: () => `3.${Array.from(randomBytesPooled(3)).join('.')}`,
  },
  'AWS::EC2::VPCGatewayAttachment': {
    AttachmentType: (model) => (typeof model.VpnGatewayId === 'string' ? 'VGW' : 'IGW'),
  },
  // A route's identifier part is its destination.
  'AWS::EC2::Route': {
    CidrBlock: (model) =>
      String(model.DestinationCidrBlock ?? model.DestinationIpv6CidrBlock ?? model.DestinationPrefixListId),
  },
  // Cognito's pool ids are `<region>_` and 9 letters and digits, its ARN, provider name and
  // URL are built from it, and an app client's id is 26 lower-case letters and digits.
  'AWS::Cognito::UserPool': {
    UserPoolId: (model, env) => userPoolId(model, env),
    Arn: (model, env) =>
      `arn:${partition(env.region)}:cognito-idp:${env.region}:${env.accountId}:userpool/${userPoolId(model, env)}`,
    ProviderName: (model, env) => `cognito-idp.${env.region}.amazonaws.com/${userPoolId(model, env)}`,
    ProviderURL: (model, env) => `https://cognito-idp.${env.region}.amazonaws.com/${userPoolId(model, env)}`,
  },
  'AWS::Cognito::UserPoolClient': { ClientId: () => lowerAlphanumeric(26) },
  // ACM's certificate ARNs end in a UUID.
  'AWS::CertificateManager::Certificate': {
    CertificateArn: (_model, env) =>
      `arn:${partition(env.region)}:acm:${env.region}:${env.accountId}:certificate/${randomUUID()}`,
  },
  // AppSync: an API id of 26 lower-case letters and digits, the ARNs of its parts below the
  // API's, and GraphQL and real-time endpoints on one host id of their own.
  'AWS::AppSync::GraphQLApi': {
    ApiId: (model) => appSyncApiId(model),
    Arn: (model, env) => appSyncApiArn(appSyncApiId(model), env),
    GraphQLDns: (model, env) => `${appSyncHost(model, env)}.appsync-api.${env.region}.amazonaws.com`,
    GraphQLUrl: (model, env) =>
      `https://${appSyncHost(model, env)}.appsync-api.${env.region}.amazonaws.com/graphql`,
    RealtimeDns: (model, env) =>
      `${appSyncHost(model, env)}.appsync-realtime-api.${env.region}.amazonaws.com`,
    RealtimeUrl: (model, env) =>
      `wss://${appSyncHost(model, env)}.appsync-realtime-api.${env.region}.amazonaws.com/graphql`,
  },
  'AWS::AppSync::DataSource': {
    DataSourceArn: (model, env, name) =>
      `${appSyncApiArn(String(model.ApiId), env)}/datasources/${nameOr(model, name)}`,
  },
  'AWS::AppSync::Resolver': {
    ResolverArn: (model, env) =>
      `${appSyncApiArn(String(model.ApiId), env)}/types/${String(model.TypeName)}/resolvers/${String(model.FieldName)}`,
  },
  'AWS::AppSync::ApiKey': { ApiKey: () => `da2-${lowerAlphanumeric(26)}` },
  'AWS::ElasticLoadBalancingV2::TargetGroup': {
    TargetGroupArn: (model, env, name) =>
      `arn:${partition(env.region)}:elasticloadbalancing:${env.region}:${env.accountId}:targetgroup/${nameOr(model, name)}/${hex(8)}`,
    TargetGroupFullName: (model) => String(model.TargetGroupArn).split(':').slice(5).join(':'),
    TargetGroupName: (model, _env, name) => nameOr(model, name),
  },
  // ECS's ARNs: a task definition's ends in `<family>:<revision>`, a service's names its cluster.
  'AWS::ECS::TaskDefinition': {
    TaskDefinitionArn: (model, env) => {
      model.Family ??= generatedName('AWS::ECS::TaskDefinition');
      const family = String(model.Family);
      return `arn:${partition(env.region)}:ecs:${env.region}:${env.accountId}:task-definition/${family}:${env.revisions.next(env.accountId, env.region, family)}`;
    },
  },
  'AWS::ECS::Service': {
    ServiceArn: (model, env, name) =>
      `arn:${partition(env.region)}:ecs:${env.region}:${env.accountId}:service/${String(model.Cluster ?? 'default').replace(/^arn:.*:cluster\//, '')}/${String(model.ServiceName ?? name)}`,
  },
};

/** `app/<name>/<id>` from a load balancer (or listener) ARN; a plausible one otherwise. */
function loadBalancerPart(arn: unknown): string {
  const match =
    typeof arn === 'string' ? /:(?:loadbalancer|listener)\/((?:app|net|gwy)\/[^/]+\/[^/]+)/.exec(arn) : null;
  return match?.[1] ?? `app/loadbalancer-${hex(4)}/${hex(8)}`;
}

const dynamoTableArn = (model: ResourceModel, env: Environment, name: string): string =>
  `arn:${partition(env.region)}:dynamodb:${env.region}:${env.accountId}:table/${typeof model.TableName === 'string' ? model.TableName : name}`;

const lowerAlphanumeric = (length: number): string =>
  randomString(length, 'abcdefghijklmnopqrstuvwxyz0123456789');

const apiGatewayId = (): string => lowerAlphanumeric(10);

/** The id a model's other attributes are built from, made by whichever is filled first. */
function userPoolId(model: ResourceModel, env: Environment): string {
  model.UserPoolId ??= `${env.region}_${randomString(9, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`;
  return String(model.UserPoolId);
}

function appSyncApiId(model: ResourceModel): string {
  model.ApiId ??= lowerAlphanumeric(26);
  return String(model.ApiId);
}

/** The host id of an API's endpoints (not its API id), kept in its GraphQL DNS name. */
function appSyncHost(model: ResourceModel, env: Environment): string {
  model.GraphQLDns ??= `${lowerAlphanumeric(26)}.appsync-api.${env.region}.amazonaws.com`;
  return String(model.GraphQLDns).split('.')[0]!;
}

const appSyncApiArn = (apiId: string, env: Environment): string =>
  `arn:${partition(env.region)}:appsync:${env.region}:${env.accountId}:apis/${apiId}`;

const nameOr = (model: ResourceModel, generated: string): string =>
  typeof model.Name === 'string' ? model.Name : generated;

/**
 * EC2's ids carry a prefix per kind and 17 hex digits; lookups and CDK handlers read the
 * prefix (a route to `igw-` makes a subnet public), so generated ids keep it.
 */
const EC2_ID_PREFIXES: Readonly<Record<string, Record<string, string>>> = {
  'AWS::EC2::VPC': { VpcId: 'vpc', DefaultSecurityGroup: 'sg', DefaultNetworkAcl: 'acl' },
  'AWS::EC2::Subnet': { SubnetId: 'subnet', NetworkAclAssociationId: 'aclassoc' },
  'AWS::EC2::RouteTable': { RouteTableId: 'rtb' },
  'AWS::EC2::SubnetRouteTableAssociation': { Id: 'rtbassoc' },
  'AWS::EC2::SecurityGroup': { GroupId: 'sg' },
  'AWS::EC2::SecurityGroupIngress': { Id: 'sgr' },
  'AWS::EC2::SecurityGroupEgress': { Id: 'sgr' },
  'AWS::EC2::InternetGateway': { InternetGatewayId: 'igw' },
  'AWS::EC2::VPNGateway': { VPNGatewayId: 'vgw' },
  'AWS::EC2::NatGateway': { NatGatewayId: 'nat' },
  'AWS::EC2::EIP': { AllocationId: 'eipalloc' },
  'AWS::EC2::VPCEndpoint': { Id: 'vpce' },
  'AWS::EC2::NetworkAcl': { Id: 'acl' },
  'AWS::EC2::SubnetNetworkAclAssociation': { AssociationId: 'aclassoc' },
  'AWS::EC2::VPCCidrBlock': { Id: 'vpc-cidr-assoc' },
};

export function ec2Id(prefix: string): string {
  return `${prefix}-${hex(9).slice(0, 17)}`;
}

function fakeScalar(leaf: string, model: ResourceModel, facts: Facts): unknown {
  const service = facts.type.split('::')[1]!.toLowerCase();
  const { region, accountId } = facts.env;
  const name = facts.name ?? `${shortName(facts.type).toLowerCase()}-${hex(8)}`;
  const shaped = SHAPED_ATTRIBUTES[facts.type]?.[leaf];
  if (shaped) return shaped(model, facts.env, name);
  const ec2Prefix = EC2_ID_PREFIXES[facts.type]?.[leaf];
  if (ec2Prefix) return ec2Id(ec2Prefix);
  if (leaf.endsWith('Arn')) {
    const main = leaf === 'Arn' || leaf === `${shortName(facts.type)}Arn`;
    if (main && facts.schema.arn) return expandArn(facts.schema.arn, model, facts.env, name);
    return `arn:${partition(region)}:${service}:${region}:${accountId}:${lowerFirst(leaf.slice(0, -3) || 'resource')}/${name}`;
  }
  if (/ur[li]$/i.test(leaf)) return `https://${service}.${region}.amazonaws.com/${accountId}/${name}`;
  if (leaf.endsWith('Name')) return name;
  if (leaf.endsWith('CidrBlock')) return '10.0.0.0/16';
  if (leaf.endsWith('Port')) return '443';
  if (/(Address|DomainName|Endpoint|DnsName|DNSName)$/.test(leaf)) {
    return `${name.toLowerCase()}.${hex(6)}.${region}.${service}.amazonaws.com`;
  }
  if (leaf.endsWith('Id')) return `${lowerFirst(leaf.slice(0, -2) || shortName(facts.type))}-${hex(8)}`;
  return `${lowerFirst(leaf)}-${hex(8)}`;
}

/** An ARN from the schema's template: pseudo parameters, then properties of the model. */
function expandArn(template: string, model: ResourceModel, env: Environment, name: string): string {
  return template.replace(/\$\{([^}]+)\}/g, (_, variable: string) => {
    if (variable === 'Partition') return partition(env.region);
    if (variable === 'Region') return env.region;
    if (variable === 'Account') return env.accountId;
    const direct = model[variable];
    if (typeof direct === 'string') return direct;
    if (variable.endsWith('WithoutLeadingSlash')) return name.replace(/^\//, '');
    if (variable.endsWith('WithPath')) {
      const path = typeof model.Path === 'string' ? model.Path : '/';
      return `${path.slice(1)}${name}`;
    }
    return name;
  });
}

export function partition(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

function shortName(type: string): string {
  return type.split('::')[2] ?? type;
}

function lowerFirst(value: string): string {
  return value.charAt(0).toLowerCase() + value.slice(1);
}

function hex(bytes: number): string {
  return randomBytesPooled(bytes).toString('hex');
}

export function getPath(model: ResourceModel, path: string): unknown {
  let current: unknown = model;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function setPath(model: ResourceModel, path: string, value: unknown): void {
  const segments = path.split('.');
  let current: Record<string, unknown> = model;
  for (const segment of segments.slice(0, -1)) {
    const next = current[segment];
    if (typeof next !== 'object' || next === null) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  current[segments[segments.length - 1]!] = value;
}
