import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CdkdError } from '../errors.js';
import { isAssemblyDirectory } from './manifest-file.js';
import { readJsonObject } from './json-file.js';
import { APPROVAL_LEVELS, type ApprovalLevel } from './approval-level.js';

export const PROJECT_CONFIG = 'cdk.json';

/** The parts of `cdk.json` that cdkd reads. */
export interface ProjectConfig {
  app?: string;
  context: Record<string, unknown>;
  output?: string;
  versionReporting?: boolean;
  /** The default of --prefix-user-supplied-names. */
  prefixUserSuppliedNames?: boolean;
  /** The default of `cdkd deploy --require-approval`. */
  requireApproval?: ApprovalLevel;
}

export function readProjectConfig(cwd: string): ProjectConfig {
  const file = join(cwd, PROJECT_CONFIG);
  const raw = readJsonObject(file, 'CDK_JSON_INVALID');
  const context = raw.context ?? {};
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    throw new CdkdError('CDK_JSON_INVALID', `${file}: "context" must be an object.`, {
      hint: 'Fix cdk.json; context is a map of key to value.',
    });
  }
  for (const key of ['app', 'output'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') {
      throw new CdkdError('CDK_JSON_INVALID', `${file}: "${key}" must be a string.`, {
        hint: 'Fix cdk.json.',
      });
    }
  }
  if (raw.prefixUserSuppliedNames !== undefined && typeof raw.prefixUserSuppliedNames !== 'boolean') {
    throw new CdkdError('CDK_JSON_INVALID', `${file}: "prefixUserSuppliedNames" must be true or false.`, {
      hint: 'Fix cdk.json.',
    });
  }
  const requireApproval = raw.requireApproval;
  if (requireApproval !== undefined && !APPROVAL_LEVELS.includes(requireApproval as ApprovalLevel)) {
    throw new CdkdError(
      'CDK_JSON_INVALID',
      `${file}: "requireApproval" must be one of ${APPROVAL_LEVELS.join(', ')}.`,
      { hint: 'Fix cdk.json.' },
    );
  }
  return {
    ...(typeof raw.app === 'string' ? { app: raw.app } : {}),
    ...(requireApproval !== undefined ? { requireApproval: requireApproval as ApprovalLevel } : {}),
    ...(typeof raw.output === 'string' ? { output: raw.output } : {}),
    ...(typeof raw.versionReporting === 'boolean' ? { versionReporting: raw.versionReporting } : {}),
    ...(typeof raw.prefixUserSuppliedNames === 'boolean'
      ? { prefixUserSuppliedNames: raw.prefixUserSuppliedNames }
      : {}),
    context: context as Record<string, unknown>,
  };
}

export type AppSource = { kind: 'command'; command: string } | { kind: 'assembly'; directory: string };

/**
 * The app, by precedence: --app, then CDKD_APP, then cdk.json's `app`. A directory
 * holding a manifest.json is a pre-synthesized assembly, read without running anything.
 */
export function resolveAppSource(input: {
  app?: string;
  env: NodeJS.ProcessEnv;
  config: ProjectConfig;
  cwd: string;
}): AppSource {
  const app = input.app || input.env.CDKD_APP || input.config.app;
  if (!app) {
    throw new CdkdError(
      'APP_MISSING',
      `No CDK app to run: no --app, no CDKD_APP, and no "app" in ${join(input.cwd, PROJECT_CONFIG)}.`,
      {
        hint: 'Run cdkd in the directory holding cdk.json, or pass --app "<command>" (or --app cdk.out for a synthesized assembly).',
      },
    );
  }
  const path = resolve(input.cwd, app);
  if (existsSync(path) && statSync(path).isDirectory()) {
    if (isAssemblyDirectory(path)) return { kind: 'assembly', directory: path };
    throw new CdkdError('ASSEMBLY_NOT_FOUND', `--app ${app} is a directory but holds no manifest.json.`, {
      hint: 'Point --app at a directory written by `cdk synth` (usually cdk.out), or at the command that runs the app.',
    });
  }
  if (looksLikeMissingPath(app) && !existsSync(path)) {
    throw new CdkdError('APP_NOT_FOUND', `--app ${app}: no such directory or file.`, {
      hint: 'Point --app at a cloud assembly directory (usually cdk.out) or at the command that runs the app.',
    });
  }
  return { kind: 'command', command: app };
}

/** A single word with a path separator cannot be a command on PATH, so a missing one is a typo. */
function looksLikeMissingPath(app: string): boolean {
  return !/\s/.test(app.trim()) && /[/\\]/.test(app);
}
