// What the installed AWS SDK v3 clients say about a service: its operations, the command a
// waiter sends, and how the names a handler writes (SDK v2 class names, v3 package names,
// boto3 names, method names) map onto one v3 package name and one operation name.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
const SDK_DIR = join(REPO_ROOT, 'node_modules', '@aws-sdk');
const CDK_LIB = join(REPO_ROOT, 'node_modules', 'aws-cdk-lib');

/** Where the installed `@aws-sdk/client-<service>` lives, or undefined when it is not installed. */
export function clientDir(service: string): string | undefined {
  const dir = join(SDK_DIR, `client-${service}`);
  return existsSync(join(dir, 'package.json')) ? dir : undefined;
}

const operationCache = new Map<string, ReadonlyMap<string, string> | undefined>();

/** The installed client's operations (one `<Op>Command` each) by lower-case name, or undefined when not installed. */
function operationIndex(service: string): ReadonlyMap<string, string> | undefined {
  if (!operationCache.has(service)) {
    const dir = clientDir(service);
    const commands = dir && join(dir, 'dist-types', 'commands');
    operationCache.set(
      service,
      commands && existsSync(commands)
        ? new Map(
            readdirSync(commands)
              .filter((file) => file.endsWith('Command.d.ts'))
              .map((file) => file.slice(0, -'Command.d.ts'.length))
              .map((operation) => [operation.toLowerCase(), operation]),
          )
        : undefined,
    );
  }
  return operationCache.get(service);
}

/** Whether the installed client is there to say which operations exist. */
export function hasClient(service: string): boolean {
  return operationIndex(service) !== undefined;
}

/** The operation named `name` in any casing (`listtopics`, `list_topics`), spelled as the client spells it. */
export function canonicalOperation(service: string, name: string): string | undefined {
  return operationIndex(service)?.get(name.replace(/_/g, '').toLowerCase());
}

/** `list_topics` or `listTopics` as an operation name when no client says otherwise: `ListTopics`. */
export function pascalCase(name: string): string {
  return name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The operation a client's waiter (`waitUntilCertificateValidated`, or boto3's
 * `certificate_validated`) polls, read from the client's own waiter module.
 */
export function waiterOperation(service: string, waiter: string): string | undefined {
  const dir = clientDir(service);
  if (!dir) return undefined;
  const name = pascalCase(waiter.replace(/^waitUntil/, ''));
  const waiters = join(dir, 'dist-es', 'waiters');
  if (!existsSync(waiters)) return undefined;
  const file = readdirSync(waiters).find(
    (entry) => entry.toLowerCase() === `waitfor${name.toLowerCase()}.js`,
  );
  if (!file) return undefined;
  return /new (\w+)Command\(/.exec(readFileSync(join(waiters, file), 'utf8'))?.[1];
}

let v2ToV3: Readonly<Record<string, string>> | undefined;

/**
 * The v3 package name (`cloudwatch-logs`) for a service as a handler names it: an SDK v2 class
 * name (`CloudWatchLogs`), a package (`@aws-sdk/client-sts`) or a boto3 name (`autoscaling`),
 * through the mapping aws-cdk-lib ships for AwsCustomResource.
 */
export function v3ServiceName(name: string): string {
  v2ToV3 ??= JSON.parse(
    readFileSync(join(CDK_LIB, 'custom-resources', 'lib', 'helpers-internal', 'sdk-v2-to-v3.json'), 'utf8'),
  ) as Record<string, string>;
  const lower = name.toLowerCase().replace(/^@aws-sdk\/client-/, '');
  return v2ToV3[lower] ?? v2ToV3[lower.replace(/-/g, '')] ?? lower;
}

/** Credential helpers from `@aws-sdk/credential-providers` and the calls they make. */
export const CREDENTIAL_PROVIDER_CALLS: Readonly<Record<string, { service: string; operation: string }>> = {
  fromTemporaryCredentials: { service: 'sts', operation: 'AssumeRole' },
  fromWebToken: { service: 'sts', operation: 'AssumeRoleWithWebIdentity' },
  fromTokenFile: { service: 'sts', operation: 'AssumeRoleWithWebIdentity' },
};

/** The installed aws-cdk-lib's folder and version. */
export function cdkLib(): { dir: string; version: string } {
  const manifest = JSON.parse(readFileSync(join(CDK_LIB, 'package.json'), 'utf8')) as { version: string };
  return { dir: CDK_LIB, version: manifest.version };
}
