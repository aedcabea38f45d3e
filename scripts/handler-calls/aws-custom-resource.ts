// The calls AwsCustomResource is asked to make: by aws-cdk-lib's own constructs that build one
// (the onCreate/onDelete `service`/`action` literals in their code), and by the `Create`,
// `Update` and `Delete` properties of the corpus's templates.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { canonicalOperation, pascalCase, v3ServiceName } from './sdk-clients.js';
import type { FoundCall } from './types.js';

export const AWS_CUSTOM_RESOURCE_FAMILY = 'custom-resources/aws-custom-resource-handler';
/** The logical id prefix CDK gives AwsCustomResource's singleton function. */
const SINGLETON_ID = 'AWS679f53fac002430cb0da5b7982bd2287';
const PHASES = ['Create', 'Update', 'Delete'] as const;

/** `service`/`action` as a handler event names them, as one call. */
export function sdkCall(service: string, action: string): { service: string; operation: string } {
  const v3 = v3ServiceName(service);
  const name = action.replace(/Command$/, '');
  return { service: v3, operation: canonicalOperation(v3, name) ?? pascalCase(name) };
}

function call(service: string, action: string, source: string): FoundCall {
  const { service: v3, operation } = sdkCall(service, action);
  const verified = canonicalOperation(v3, operation) !== undefined;
  return {
    service: v3,
    operation,
    family: AWS_CUSTOM_RESOURCE_FAMILY,
    source,
    via: 'AwsCustomResource',
    verified,
  };
}

function* jsFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

/** Calls aws-cdk-lib's constructs make through an AwsCustomResource they create. */
export function constructCalls(cdkLibDir: string): FoundCall[] {
  const calls: FoundCall[] = [];
  for (const module of readdirSync(cdkLibDir)) {
    const lib = join(cdkLibDir, module, 'lib');
    if (module === 'custom-resources' || !existsSync(lib)) continue;
    for (const file of jsFiles(lib)) {
      const code = readFileSync(file, 'utf8');
      if (!/\bAwsCustomResource\b/.test(code)) continue;
      const services = [...code.matchAll(/\bservice:"([\w@/-]+)"/g)];
      for (const action of code.matchAll(/\baction:"(\w+)"/g)) {
        const nearest = services.sort(
          (a, b) => Math.abs(a.index - action.index) - Math.abs(b.index - action.index),
        )[0];
        if (nearest) calls.push(call(nearest[1]!, action[1]!, `aws-cdk-lib/${relative(cdkLibDir, file)}`));
      }
    }
  }
  return calls;
}

/**
 * AwsCustomResource calls the public example apps of issue 35 make, which neither aws-cdk-lib
 * nor the corpus names: a KMS multi-Region replica and an EC2 Instance Connect endpoint.
 */
const EXAMPLE_APP_CALLS: ReadonlyArray<readonly [string, string]> = [
  ['KMS', 'replicateKey'],
  ['KMS', 'scheduleKeyDeletion'],
  ['EC2', 'createInstanceConnectEndpoint'],
  ['EC2', 'deleteInstanceConnectEndpoint'],
];

export function exampleAppCalls(): FoundCall[] {
  return EXAMPLE_APP_CALLS.map(([service, action]) => call(service, action, 'issue 35: public example apps'));
}

/** A property value's literal text, with `<token>` where an intrinsic stands. */
function literal(value: unknown): string {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] } | null)?.['Fn::Join'];
  if (join) return join[1].map(literal).join(join[0]);
  return '<token>';
}

function isSingletonToken(token: unknown): boolean {
  const getAtt = (token as { 'Fn::GetAtt'?: unknown } | null)?.['Fn::GetAtt'];
  return Array.isArray(getAtt) && typeof getAtt[0] === 'string' && getAtt[0].startsWith(SINGLETON_ID);
}

/** Calls the AwsCustomResources of one template ask for. */
export function templateCalls(template: unknown, source: string): FoundCall[] {
  const resources = (template as { Resources?: Record<string, { Properties?: Record<string, unknown> }> })
    .Resources;
  const calls: FoundCall[] = [];
  for (const resource of Object.values(resources ?? {})) {
    const properties = resource.Properties ?? {};
    if (!isSingletonToken(properties.ServiceToken)) continue;
    for (const phase of PHASES) {
      if (properties[phase] === undefined) continue;
      const text = literal(properties[phase]);
      const service = /"service":"([^"]+)"/.exec(text)?.[1];
      const action = /"action":"([^"]+)"/.exec(text)?.[1];
      if (service && action) calls.push(call(service, action, source));
    }
  }
  return calls;
}

/** The corpus's templates folder, or undefined when the corpus is absent. */
export function corpusDir(root: string): string | undefined {
  const dir = join(root, '..', 'shared', 'corpus', 'templates');
  return existsSync(dir) ? dir : undefined;
}

export function corpusCalls(dir: string): FoundCall[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.template.json'))
    .flatMap((file) => templateCalls(JSON.parse(readFileSync(join(dir, file), 'utf8')), `corpus: ${file}`));
}
