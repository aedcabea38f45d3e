import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NestedTemplate } from '../../src/engine/stack-request.js';
import { parseTemplate, type ParameterValue } from '../../src/template/index.js';
import { corpusDir, fakeRequiredParameters } from '../template/corpus-support.js';

export { corpusDir };

const manifestsDir = path.join(corpusDir, 'manifests');
const DEFAULT_REGION = 'us-east-1';

type Json = Record<string, unknown>;

/** One top-level corpus template, deployed as a stack of its app. */
export interface CorpusStack {
  /** The corpus file name (`<app>__<StackFile>.template.json`). */
  file: string;
  /** AWS::StackName: the manifest's stackName. */
  stackName: string;
  region: string;
  template: Json;
  /** Fake values for the parameters without a Default (a parent or a pipeline would pass them). */
  parameters: Record<string, ParameterValue>;
  nested: ReadonlyMap<string, NestedTemplate>;
  /** Resource types of the stack and every nested child. */
  types: ReadonlySet<string>;
}

/** One CDK integration test's stacks (same `<module>__<integ-name>` prefix), in deploy order. */
export interface CorpusApp {
  name: string;
  stacks: CorpusStack[];
}

interface ManifestArtifact {
  type: string;
  dependencies?: string[];
  environment?: string;
  properties?: { templateFile?: string; stackName?: string };
}

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

export const isNestedTemplateFile = (file: string): boolean => file.endsWith('.nested.template.json');

/** The app a corpus file belongs to: its name without the last `__` segment. */
export const appOf = (file: string): string => file.slice(0, file.lastIndexOf('__'));

/** Every top-level template (nested children deploy through their parents), grouped by app. */
export function corpusApps(): CorpusApp[] {
  const files = readdirSync(corpusDir)
    .filter((f) => f.endsWith('.template.json') && !isNestedTemplateFile(f))
    .sort();
  const byApp = new Map<string, string[]>();
  for (const file of files) byApp.set(appOf(file), [...(byApp.get(appOf(file)) ?? []), file]);
  return [...byApp].flatMap(([name, appFiles]) => loadApp(name, appFiles));
}

function loadApp(name: string, files: string[]): CorpusApp[] {
  const manifest = readJson(path.join(manifestsDir, `${name}__manifest.json`));
  const artifacts = Object.entries((manifest.artifacts ?? {}) as Record<string, ManifestArtifact>).filter(
    ([, artifact]) => artifact.type === 'aws:cloudformation:stack',
  );
  const assetPaths = nestedTemplatePaths(name, manifest);
  const byFile = new Map(
    artifacts.map(([id, artifact]) => [
      `${name}__${artifact.properties?.templateFile ?? ''}`,
      { id, artifact },
    ]),
  );
  // A snapshot can hold a template its manifest no longer lists: an app of its own.
  const stale = files.filter((file) => !byFile.has(file));
  const listed = files.filter((file) => byFile.has(file));
  return [
    ...(listed.length > 0 ? [appFrom(name, listed, byFile, assetPaths)] : []),
    ...stale.map((file) => appFrom(`${name}#${file.slice(name.length + 2)}`, [file], byFile, assetPaths)),
  ];
}

function appFrom(
  name: string,
  files: string[],
  byFile: ReadonlyMap<string, { id: string; artifact: ManifestArtifact }>,
  assetPaths: ReadonlyMap<string, string>,
): CorpusApp {
  const prefix = appOf(files[0]!);
  const stacks = new Map<string, { stack: CorpusStack; dependsOn: string[] }>();
  for (const file of files) {
    const stackFile = file.slice(prefix.length + 2);
    const entry = byFile.get(file) ?? {
      id: stackFile,
      artifact: {
        type: 'aws:cloudformation:stack',
        properties: { stackName: stackFile.replace(/\.template\.json$/, '') },
      },
    };
    const template = readJson(path.join(corpusDir, file));
    const types = new Set<string>();
    const nested = nestedMap(template, assetPaths, prefix, types);
    stacks.set(entry.id, {
      stack: {
        file,
        stackName: entry.artifact.properties?.stackName ?? entry.id,
        region: regionOf(entry.artifact.environment),
        template,
        parameters: requiredParameters(template, file),
        nested,
        types,
      },
      dependsOn: entry.artifact.dependencies ?? [],
    });
  }
  return { name, stacks: deployOrder(stacks) };
}

/** Fake values for parameters without a Default, as strings (what a caller passes). */
function requiredParameters(template: Json, file: string): Record<string, ParameterValue> {
  const supplied = fakeRequiredParameters(parseTemplate(JSON.stringify(template), file));
  return Object.fromEntries(
    Object.entries(supplied).map(([name, value]) => [
      name,
      typeof value === 'number' ? String(value) : value,
    ]),
  );
}

/** The manifest's region, or the sandbox's default for an environment-agnostic stack. */
function regionOf(environment: string | undefined): string {
  const region = /^aws:\/\/[^/]+\/(.+)$/.exec(environment ?? '')?.[1];
  return region === undefined || region === 'unknown-region' ? DEFAULT_REGION : region;
}

/** Dependencies first (the manifest's stack dependencies; asset manifests are ignored). */
function deployOrder(stacks: Map<string, { stack: CorpusStack; dependsOn: string[] }>): CorpusStack[] {
  const ordered: CorpusStack[] = [];
  const visited = new Set<string>();
  const visit = (id: string): void => {
    if (visited.has(id)) return;
    visited.add(id);
    const entry = stacks.get(id);
    if (!entry) return;
    for (const dep of entry.dependsOn) visit(dep);
    ordered.push(entry.stack);
  };
  for (const id of [...stacks.keys()].sort()) visit(id);
  return ordered;
}

let manifestListing: string[] | undefined;
const manifestFiles = (): string[] => (manifestListing ??= readdirSync(manifestsDir));

/**
 * Asset hash → nested template file, from every asset manifest of the app and from the
 * `aws:cdk:asset` metadata of older snapshots (whose TemplateURL is built from asset parameters).
 */
function nestedTemplatePaths(app: string, manifest: Json): Map<string, string> {
  const paths = new Map<string, string>();
  for (const artifact of Object.values((manifest.artifacts ?? {}) as Record<string, Json>)) {
    for (const entries of Object.values((artifact.metadata ?? {}) as Record<string, Json[]>)) {
      for (const entry of entries) {
        const data = (entry.data ?? {}) as { path?: string; id?: string };
        if (entry.type === 'aws:cdk:asset' && data.id && data.path && isNestedTemplateFile(data.path))
          paths.set(data.id, data.path);
      }
    }
  }
  for (const file of manifestFiles()) {
    if (!file.startsWith(`${app}__`) || !file.endsWith('.assets.json')) continue;
    const assets = readJson(path.join(manifestsDir, file));
    for (const [hash, asset] of Object.entries((assets.files ?? {}) as Record<string, Json>)) {
      const source = (asset.source ?? {}) as { path?: string };
      if (source.path && isNestedTemplateFile(source.path)) paths.set(hash, source.path);
    }
  }
  return paths;
}

/**
 * The nested map for a template: each `AWS::CloudFormation::Stack` whose TemplateURL names
 * an asset of the app (`.../<hash>.json`) gets that nested template, recursively. Types of
 * every template visited are added to `types`.
 */
function nestedMap(
  template: Json,
  assetPaths: ReadonlyMap<string, string>,
  app: string,
  types: Set<string>,
): Map<string, NestedTemplate> {
  const nested = new Map<string, NestedTemplate>();
  for (const [logicalId, resource] of Object.entries((template.Resources ?? {}) as Record<string, Json>)) {
    types.add(String(resource.Type));
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    const url = JSON.stringify((resource.Properties as Json | undefined)?.TemplateURL ?? '');
    const hash = /[0-9a-f]{64}/.exec(url)?.[0];
    const childPath = hash === undefined ? undefined : assetPaths.get(hash);
    const childFile = childPath === undefined ? undefined : path.join(corpusDir, `${app}__${childPath}`);
    if (childFile === undefined || !existsSync(childFile)) continue;
    const child = readJson(childFile);
    nested.set(logicalId, { template: child, nested: nestedMap(child, assetPaths, app, types) });
  }
  return nested;
}

/**
 * SSM parameters the corpus reads but does not create: SSM-typed parameter defaults
 * (AMI ids) and `{{resolve:ssm:...}}` references. The sandbox is seeded with a fake
 * value for each (an AMI-shaped one for image ids); AWS's public ones it holds itself.
 */
export function ssmParametersRead(apps: readonly CorpusApp[]): Map<string, string> {
  const read = new Map<string, string>();
  const created = new Set<string>();
  const visit = (template: Json): void => {
    for (const [name, parameter] of Object.entries((template.Parameters ?? {}) as Record<string, Json>)) {
      const type = String(parameter.Type ?? '');
      if (name === 'BootstrapVersion' || !type.startsWith('AWS::SSM::Parameter::Value<')) continue;
      if (typeof parameter.Default !== 'string') continue;
      read.set(parameter.Default, fakeSsmValue(parameter.Default, type));
    }
    const text = JSON.stringify(template);
    for (const match of text.matchAll(/\{\{resolve:ssm(?:-secure)?:([A-Za-z0-9_./-]+)(?::\d+)?\}\}/g)) {
      read.set(match[1]!, fakeSsmValue(match[1]!, 'String'));
    }
    for (const resource of Object.values((template.Resources ?? {}) as Record<string, Json>)) {
      const name = (resource.Properties as Json | undefined)?.Name;
      if (resource.Type === 'AWS::SSM::Parameter' && typeof name === 'string') created.add(name);
    }
  };
  const walk = (nested: ReadonlyMap<string, NestedTemplate>): void => {
    for (const child of nested.values()) {
      visit(child.template);
      walk(child.nested);
    }
  };
  for (const app of apps) {
    for (const stack of app.stacks) {
      visit(stack.template);
      walk(stack.nested);
    }
  }
  for (const name of created) read.delete(name);
  // AWS's public parameters (/aws/service/...) are in the sandbox already, read-only as in AWS.
  for (const name of read.keys()) if (name.startsWith('/aws/')) read.delete(name);
  return read;
}

function fakeSsmValue(name: string, type: string): string {
  if (type.includes('List<')) return 'value-a,value-b';
  if (/image_id|ami/i.test(name) || type.includes('AWS::EC2::Image::Id')) return 'ami-0123456789abcdef0';
  return `ssm-value-of-${name}`;
}

/** The asset objects the corpus's templates name (`<hash>.zip` / `<hash>.json` keys). */
export function assetKeys(apps: readonly CorpusApp[]): Set<string> {
  const keys = new Set<string>();
  const visit = (template: Json, nested: ReadonlyMap<string, NestedTemplate>): void => {
    for (const match of JSON.stringify(template).matchAll(/[0-9a-f]{64}\.(?:zip|json)/g)) keys.add(match[0]);
    for (const child of nested.values()) visit(child.template, child.nested);
  };
  for (const app of apps) for (const stack of app.stacks) visit(stack.template, stack.nested);
  return keys;
}
