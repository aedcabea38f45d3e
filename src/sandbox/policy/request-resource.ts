import type { SandboxRequest } from '../request.js';
import { s3Target } from '../services/s3/operations.js';

/** What a resource is derived from: the request's input, and where it acts. */
interface Source {
  input: Record<string, unknown>;
  request: SandboxRequest;
  operation: string;
  region: string;
  account: string;
}

type Derive = (source: Source) => string[] | undefined;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const isArn = (value: string) => value.startsWith('arn:');

/** `arn:aws:SERVICE:REGION:ACCOUNT:` + rest, or the value itself when it is an ARN already. */
function arnOf(service: string, source: Source, value: string | undefined, rest: (name: string) => string) {
  if (value === undefined) return undefined;
  return [isArn(value) ? value : `arn:aws:${service}:${source.region}:${source.account}:${rest(value)}`];
}

const DERIVE: Record<string, Derive> = {
  s3(source) {
    const { bucket, key } = s3Target(source.request);
    if (bucket === '') return undefined;
    return [key === '' ? `arn:aws:s3:::${bucket}` : `arn:aws:s3:::${bucket}/${key}`];
  },
  sqs(source) {
    const url = text(source.input.QueueUrl);
    const named = url && /\/(\d{12})\/([^/?#]+)$/.exec(url);
    if (named) return [`arn:aws:sqs:${source.region}:${named[1]}:${named[2]}`];
    const owner = text(source.input.QueueOwnerAWSAccountId) ?? source.account;
    const name = text(source.input.QueueName);
    return name === undefined ? undefined : [`arn:aws:sqs:${source.region}:${owner}:${name}`];
  },
  sns(source) {
    const arn =
      text(source.input.TopicArn) ??
      text(source.input.TargetArn) ??
      text(source.input.SubscriptionArn)?.replace(/:[^:]+$/, '') ??
      text(source.input.ResourceArn);
    if (arn !== undefined) return [arn];
    return arnOf('sns', source, text(source.input.Name), (name) => name);
  },
  dynamodb: (source) =>
    arnOf(
      'dynamodb',
      source,
      text(source.input.TableName) ?? text(source.input.ResourceArn),
      (name) => `table/${name}`,
    ),
  lambda(source) {
    const fromPath = /\/functions\/([^/]+)/.exec(source.request.path)?.[1];
    const name = fromPath ? decodeURIComponent(fromPath) : text(source.input.FunctionName);
    return arnOf('lambda', source, name, (value) => `function:${value}`);
  },
  iam(source) {
    const { input, account } = source;
    const arn = text(input.PolicyArn);
    if (arn !== undefined) return [arn];
    const named: Array<[string, string]> = [
      ['RoleName', 'role'],
      ['UserName', 'user'],
      ['GroupName', 'group'],
      ['InstanceProfileName', 'instance-profile'],
    ];
    for (const [field, kind] of named) {
      const name = text(input[field]);
      if (name !== undefined) return [`arn:aws:iam::${account}:${kind}${text(input.Path) ?? '/'}${name}`];
    }
    return undefined;
  },
  ssm(source) {
    const names = Array.isArray(source.input.Names)
      ? source.input.Names.map(text)
      : [text(source.input.Name)];
    const arns = names.flatMap(
      (name) =>
        arnOf('ssm', source, name, (value) => `parameter${value.startsWith('/') ? '' : '/'}${value}`) ?? [],
    );
    return arns.length > 0 ? arns : undefined;
  },
  logs(source) {
    const stream = text(source.input.logStreamName) ?? '';
    return arnOf(
      'logs',
      source,
      text(source.input.logGroupName),
      (group) => `log-group:${group}:log-stream:${stream}`,
    );
  },
  kms(source) {
    const id = text(source.input.KeyId) ?? text(source.input.TargetKeyId);
    return arnOf('kms', source, id, (value) => (value.startsWith('alias/') ? value : `key/${value}`));
  },
  cloudformation: (source) =>
    arnOf('cloudformation', source, text(source.input.StackName), (name) => `stack/${name}/`),
  sts: (source) => (text(source.input.RoleArn) ? [text(source.input.RoleArn)!] : undefined),
  secretsmanager: (source) =>
    arnOf(
      'secretsmanager',
      source,
      text(source.input.SecretId) ?? text(source.input.Name),
      (name) => `secret:${name}`,
    ),
  ecr: (source) => arnOf('ecr', source, text(source.input.repositoryName), (name) => `repository/${name}`),
  kinesis: (source) =>
    arnOf(
      'kinesis',
      source,
      text(source.input.StreamARN) ?? text(source.input.StreamName),
      (name) => `stream/${name}`,
    ),
  states: (source) => {
    const arn = text(source.input.stateMachineArn) ?? text(source.input.executionArn);
    return arn === undefined ? undefined : [arn];
  },
  events: (source) =>
    arnOf('events', source, text(source.input.Rule) ?? text(source.input.Name), (name) =>
      source.operation.includes('EventBus') ? `event-bus/${name}` : `rule/${name}`,
    ),
};

/**
 * The ARNs a call acts on, as IAM sees them, where the request names them plainly; undefined
 * where the sandbox does not derive one (then only statements for `*` apply).
 */
export function requestResources(
  request: SandboxRequest,
  service: string,
  operation: string,
): string[] | undefined {
  const derive = DERIVE[service];
  if (!derive) return undefined;
  return derive({
    input: requestInput(request),
    request,
    operation,
    region: request.region,
    account: request.accountId,
  });
}

/** The input naming a role a call hands to a service, which IAM checks as `iam:PassRole` on it. */
const PASSED_ROLE: Record<string, string> = {
  lambda: 'Role',
  cloudformation: 'RoleARN',
  cloudcontrolapi: 'RoleArn',
  states: 'roleArn',
};

/** The roles a call passes to the service (a function's execution role, a stack's service role). */
export function passedRoles(request: SandboxRequest, service: string): string[] {
  const field = PASSED_ROLE[service];
  const role = field === undefined ? undefined : text(requestInput(request)[field]);
  return role === undefined ? [] : [role];
}

/** The call's named inputs: query-protocol parameters, or the JSON document it sent. */
function requestInput(request: SandboxRequest): Record<string, unknown> {
  const type = request.headers['content-type'] ?? '';
  if (type.includes('x-www-form-urlencoded') || (request.method === 'GET' && request.query.has('Action'))) {
    const params =
      request.method === 'POST' ? new URLSearchParams(request.body.toString('utf8')) : request.query;
    return Object.fromEntries(params);
  }
  if (!type.includes('json') || request.body.length === 0) return {};
  try {
    const parsed = JSON.parse(request.body.toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
