import { canonicalJson } from '../plan/index.js';
import { nameProperty, readPath } from '../rollback/decisions/name-properties.js';
import { partitionForRegion } from '../template/index.js';
import { holdsPendingValue } from './state-resolver.js';

/**
 * The service an ARN of each type names, for the types whose ids cdkd can tell apart
 * by it; a type not listed is not checked (an unknown mapping must not refuse a good id).
 */
const ARN_SERVICES: Readonly<Record<string, string>> = {
  S3: 's3',
  SQS: 'sqs',
  SNS: 'sns',
  DynamoDB: 'dynamodb',
  Lambda: 'lambda',
  Logs: 'logs',
  IAM: 'iam',
  KMS: 'kms',
  SecretsManager: 'secretsmanager',
  SSM: 'ssm',
  Events: 'events',
  StepFunctions: 'states',
  EC2: 'ec2',
  ECS: 'ecs',
  ECR: 'ecr',
  RDS: 'rds',
  Kinesis: 'kinesis',
  ElasticLoadBalancingV2: 'elasticloadbalancing',
};

/**
 * An id of the wrong type: an ARN whose service is not the type's own (a queue's ARN
 * given for a bucket). Returns the ARN's service, or undefined when nothing shows a mismatch.
 */
export function arnOfAnotherService(type: string, physicalId: string): string | undefined {
  if (!physicalId.startsWith('arn:')) return undefined;
  const expected = ARN_SERVICES[type.split('::')[1] ?? ''];
  const service = physicalId.split(':')[2];
  if (expected === undefined || service === undefined) return undefined;
  return service === expected ? undefined : service;
}

/**
 * The explicit name the template gives a resource, when the id to import names another
 * (CloudFormation's import refuses the same way): the template's name, else undefined.
 */
export function templateNameMismatch(
  type: string,
  desired: Record<string, unknown>,
  physicalId: string,
): string | undefined {
  const rule = nameProperty(type);
  if (!rule || rule.rewritesName) return undefined;
  const name = readPath(desired, rule.path);
  if (typeof name !== 'string' || holdsPendingValue(name)) return undefined;
  const named = rule.fromId ? rule.fromId(physicalId).name : physicalId;
  if (named === undefined) return undefined;
  const fold = rule.fold ?? ((text: string) => text);
  return fold(named) === fold(name) ? undefined : name;
}

/**
 * The physical id a template's explicit name stands for, for the types whose id is the
 * name (or an ARN built from it): what `cdkd import` without --resource looks for. Types
 * whose id AWS assigns (a queue URL, a secret's random suffix) or whose name cdkd rewrites
 * are not offered.
 */
export function physicalIdForName(
  type: string,
  desired: Record<string, unknown>,
  where: { region: string; accountId: string },
): string | undefined {
  const rule = nameProperty(type);
  if (!rule || rule.rewritesName || rule.parent) return undefined;
  const name = readPath(desired, rule.path);
  if (typeof name !== 'string' || name === '' || holdsPendingValue(name)) return undefined;
  if (type === 'AWS::SNS::Topic') {
    return `arn:${partitionForRegion(where.region)}:sns:${where.region}:${where.accountId}:${name}`;
  }
  return rule.fromId ? undefined : name;
}

export interface ImportedProperties {
  /** What the record stores as applied: the template's (masked) value where AWS holds it, AWS's elsewhere. */
  properties: Record<string, unknown>;
  /** What the property hash is taken over, with real values where the template's were used. */
  hashed: Record<string, unknown>;
  /** Template properties AWS holds another value for (or none): the next deploy updates them. */
  differing: string[];
}

/**
 * The applied properties an import records, over the template's properties only (what the
 * template leaves out, a deploy leaves alone). A property AWS holds as the template says is
 * recorded as the template's, so a matching template plans a no-op; one that differs is
 * recorded as AWS holds it, so the next deploy plans the update.
 */
export function importedProperties(
  desired: Record<string, unknown>,
  masked: Record<string, unknown>,
  live: Record<string, unknown>,
): ImportedProperties {
  const properties: Record<string, unknown> = {};
  const hashed: Record<string, unknown> = {};
  const differing: string[] = [];
  for (const key of Object.keys(desired).sort()) {
    if (canonicalJson(desired[key]) === canonicalJson(live[key])) {
      properties[key] = masked[key];
      hashed[key] = desired[key];
      continue;
    }
    differing.push(key);
    if (live[key] === undefined) continue;
    properties[key] = live[key];
    hashed[key] = live[key];
  }
  return { properties, hashed, differing };
}
