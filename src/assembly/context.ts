import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CdkdError } from '../errors.js';
import { readJsonObject } from './json-file.js';

export const PROJECT_CONTEXT = 'cdk.context.json';

export type ContextValues = Record<string, unknown>;

/**
 * `-c key=value` as the CDK CLI reads it: split at the first `=`, the value kept
 * as a string (never JSON-parsed), `aws:` keys refused. An argument without `=`
 * is ignored and returned so the caller can warn, as the CDK CLI does.
 */
export function parseContextArgs(args: string[]): { values: Record<string, string>; ignored: string[] } {
  const values: Record<string, string> = {};
  const ignored: string[] = [];
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at < 0) {
      ignored.push(arg);
      continue;
    }
    const key = arg.slice(0, at);
    if (/^aws:.+/.test(key)) {
      throw new CdkdError(
        'CONTEXT_KEY_RESERVED',
        `Context keys starting with "aws:" are reserved, but -c ${key} was given.`,
        {
          hint: 'Rename the context key.',
        },
      );
    }
    values[key] = arg.slice(at + 1);
  }
  return { values, ignored };
}

export interface ContextLayers {
  /** cdk.json's `context`. */
  project: ContextValues;
  /** cdk.context.json. */
  cached: ContextValues;
  /** -c key=value. */
  commandLine: ContextValues;
  /** cdk.json's `versionReporting` (default on, as in the CDK CLI). */
  versionReporting?: boolean;
}

/**
 * The context handed to the app. Precedence mirrors the CDK CLI: -c wins over
 * cdk.json's context, which wins over cdk.context.json. The toolkit keys come
 * last: asset metadata is how nested templates and Lambda code are found.
 */
export function buildContext(layers: ContextLayers): ContextValues {
  const versionReporting = layers.versionReporting ?? true;
  return {
    ...layers.cached,
    ...layers.project,
    ...layers.commandLine,
    'aws:cdk:enable-path-metadata': true,
    'aws:cdk:enable-asset-metadata': true,
    'aws:cdk:version-reporting': versionReporting,
    ...(versionReporting ? {} : { 'aws:cdk:disable-version-reporting': true }),
    'aws:cdk:bundling-stacks': ['**'],
  };
}

export function readContextFile(cwd: string): ContextValues {
  return readJsonObject(join(cwd, PROJECT_CONTEXT), 'CONTEXT_FILE_INVALID');
}

/** Merges looked-up values into cdk.context.json, keeping the other keys. */
export function saveContextValues(cwd: string, values: ContextValues): void {
  writeContextFile(cwd, { ...readContextFile(cwd), ...values });
}

/** Writes cdk.context.json with its keys sorted, so reruns write the same file. */
export function writeContextFile(cwd: string, values: ContextValues): void {
  const sorted = Object.fromEntries(
    Object.keys(values)
      .sort()
      .map((key) => [key, values[key]]),
  );
  writeFileSync(join(cwd, PROJECT_CONTEXT), `${JSON.stringify(sorted, null, 2)}\n`);
}
