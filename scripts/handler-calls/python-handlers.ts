// The calls a Python handler makes: boto3 clients (`s3 = boto3.client('s3')`, then
// `s3.put_bucket_notification_configuration(...)`, waiters and paginators), and AWS CLI
// commands it runs as a subprocess (`['aws', 'eks', 'update-kubeconfig', ...]`).
import { canonicalOperation, pascalCase, v3ServiceName, waiterOperation } from './sdk-clients.js';
import type { FoundCall } from './types.js';

const BOTO3_CLIENT = /(\w+)\s*=\s*boto3\.(?:Session\(\)\.)?client\(\s*['"]([\w-]+)['"]/g;
const NOT_OPERATIONS = new Set([
  'get_waiter',
  'get_paginator',
  'can_paginate',
  'close',
  'generate_presigned_url',
]);
const AWS_LIST = /\[\s*['"](?:aws|\/opt\/awscli\/aws)['"]\s*,\s*['"]([\w-]+)['"]\s*,\s*['"]([\w-]+)['"]/g;
const HELPER = /def (\w+)\(\*args\):([\s\S]*?)(?=\ndef |\n\S|$)/g;

/**
 * The API calls an AWS CLI command makes: the CLI's high-level commands are code in the CLI,
 * not in the handler, so this table (read from the CLI's own source) says what each one calls.
 */
export const CLI_CALLS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  'configure set': [],
  's3 cp': [
    ['s3', 'HeadObject'],
    ['s3', 'GetObject'],
  ],
  's3 sync': [
    ['s3', 'ListObjectsV2'],
    ['s3', 'PutObject'],
    ['s3', 'CreateMultipartUpload'],
    ['s3', 'UploadPart'],
    ['s3', 'CompleteMultipartUpload'],
    ['s3', 'DeleteObject'],
  ],
  's3 rm': [
    ['s3', 'ListObjectsV2'],
    ['s3', 'DeleteObject'],
  ],
  'eks update-kubeconfig': [['eks', 'DescribeCluster']],
  'ecr get-login-password': [['ecr', 'GetAuthorizationToken']],
  'ecr-public get-login-password': [['ecr-public', 'GetAuthorizationToken']],
  'emr-containers update-role-trust-policy': [
    ['eks', 'DescribeCluster'],
    ['iam', 'GetRole'],
    ['iam', 'UpdateAssumeRolePolicy'],
  ],
};

function boto3Calls(code: string, family: string, source: string): FoundCall[] {
  const calls: FoundCall[] = [];
  for (const [, variable, boto3Name] of code.matchAll(BOTO3_CLIENT)) {
    const service = v3ServiceName(boto3Name!);
    const add = (operation: string, verified: boolean) =>
      calls.push({ service, operation, family, source, via: 'boto3', verified });
    for (const [, method, argument] of code.matchAll(
      new RegExp(`\\b${variable}\\.([a-z][a-z0-9_]*)\\(\\s*(?:['"](\\w+)['"])?`, 'g'),
    )) {
      if (method === 'get_waiter' && argument) {
        const operation = waiterOperation(service, argument);
        add(operation ?? pascalCase(argument), operation !== undefined);
      } else if (method === 'get_paginator' && argument) {
        add(
          canonicalOperation(service, argument) ?? pascalCase(argument),
          canonicalOperation(service, argument) !== undefined,
        );
      } else if (!NOT_OPERATIONS.has(method!)) {
        const operation = canonicalOperation(service, method!);
        // Every other boto3 client method is an operation; only the casing needs the client.
        add(operation ?? pascalCase(method!), operation !== undefined);
      }
    }
  }
  return calls;
}

/** The `service command` pairs of every AWS CLI command the handler runs. */
export function cliCommands(code: string): string[] {
  const commands = [...code.matchAll(AWS_LIST)].map((m) => `${m[1]} ${m[2]}`);
  for (const [, helper, body] of code.matchAll(HELPER)) {
    if (!/awscli\/aws|['"]aws['"]/.test(body!)) continue;
    const pair = `\\(\\s*['"]([\\w-]+)['"]\\s*,\\s*['"]([\\w-]+)['"]`;
    for (const m of code.matchAll(new RegExp(`\\b${helper}${pair}`, 'g'))) commands.push(`${m[1]} ${m[2]}`);
    // A command built in a list first, then passed whole: `cmd = ["s3", "sync"]` ... `helper(*cmd)`.
    for (const m of code.matchAll(/(\w+)\s*=\s*\[\s*['"]([\w-]+)['"]\s*,\s*['"]([\w-]+)['"]\s*\]/g)) {
      if (new RegExp(`\\b${helper}\\(\\*${m[1]}\\)`).test(code)) commands.push(`${m[2]} ${m[3]}`);
    }
  }
  return [...new Set(commands)];
}

export function extractPython(code: string, family: string, source: string): FoundCall[] {
  const calls = boto3Calls(code, family, source);
  for (const command of cliCommands(code)) {
    const known = CLI_CALLS[command];
    if (known) {
      for (const [service, operation] of known)
        calls.push({
          service,
          operation,
          family,
          source: `${source} (aws ${command})`,
          via: 'aws-cli',
          verified: true,
        });
    } else {
      const [service, action] = command.split(' ') as [string, string];
      calls.push({
        service,
        operation: pascalCase(action.replace(/-/g, '_')),
        family,
        source: `${source} (aws ${command})`,
        via: 'aws-cli',
        verified: false,
      });
    }
  }
  return calls;
}
