import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Manifest } from '@aws-cdk/cloud-assembly-schema';

// No vitest here: the chaos script (scripts/chaos.ts) writes assemblies outside a test run.

export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

export interface StackSpec {
  id: string;
  template?: Record<string, unknown>;
  dependencies?: string[];
  environment?: string;
  displayName?: string;
  stackName?: string;
  metadata?: Record<string, { type: string; data?: unknown }[]>;
  tags?: Record<string, string>;
  terminationProtection?: boolean;
  notificationArns?: string[];
  /** Asset manifest content; written as `<id>.assets.json` and made a dependency. */
  assets?: Record<string, unknown>;
}

/** Writes manifest.json, templates and asset manifests for the stacks, CDK-style. */
export function writeAssembly(
  dir: string,
  stacks: StackSpec[],
  extra: {
    nested?: Record<string, { directoryName: string; displayName?: string }>;
    missing?: unknown[];
  } = {},
): string {
  const artifacts: Record<string, unknown> = {};
  for (const stack of stacks) {
    const templateFile = `${stack.id.replace(/\//g, '-')}.template.json`;
    writeJson(join(dir, templateFile), stack.template ?? { Resources: {} });
    const dependencies = [...(stack.dependencies ?? [])];
    if (stack.assets) {
      const file = `${stack.id}.assets.json`;
      writeJson(join(dir, file), {
        version: Manifest.version(),
        files: {},
        dockerImages: {},
        ...stack.assets,
      });
      artifacts[`${stack.id}.assets`] = { type: 'cdk:asset-manifest', properties: { file } };
      dependencies.push(`${stack.id}.assets`);
    }
    artifacts[stack.id] = {
      type: 'aws:cloudformation:stack',
      environment: stack.environment ?? 'aws://unknown-account/unknown-region',
      properties: {
        templateFile,
        ...(stack.stackName ? { stackName: stack.stackName } : {}),
        ...(stack.tags ? { tags: stack.tags } : {}),
        ...(stack.terminationProtection !== undefined
          ? { terminationProtection: stack.terminationProtection }
          : {}),
        ...(stack.notificationArns ? { notificationArns: stack.notificationArns } : {}),
      },
      ...(dependencies.length ? { dependencies } : {}),
      ...(stack.metadata ? { metadata: stack.metadata } : {}),
      ...(stack.displayName ? { displayName: stack.displayName } : {}),
    };
  }
  for (const [id, props] of Object.entries(extra.nested ?? {})) {
    artifacts[id] = { type: 'cdk:cloud-assembly', properties: props };
  }
  writeJson(join(dir, 'manifest.json'), {
    version: Manifest.version(),
    artifacts,
    ...(extra.missing ? { missing: extra.missing } : {}),
  });
  return dir;
}
