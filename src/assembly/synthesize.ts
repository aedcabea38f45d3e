import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Manifest } from '@aws-cdk/cloud-assembly-schema';
import { CdkdError } from '../errors.js';
import {
  buildContext,
  parseContextArgs,
  readContextFile,
  saveContextValues,
  type ContextValues,
} from './context.js';
import { MANIFEST_FILE } from './manifest-file.js';
import { loadAssemblyManifest } from './manifest.js';
import { resolveMissingContext, type ContextLookups } from './missing-context.js';
import { readProjectConfig, resolveAppSource } from './project-config.js';
import { readAssembly } from './read-assembly.js';
import { runApp } from './run-app.js';
import type { CloudAssembly } from './types.js';

/** Each round resolves what the app asked for; an app that keeps asking is stopped. */
export const MAX_LOOKUP_ROUNDS = 5;
export const DEFAULT_OUTPUT = 'cdk.out';

/** Account and region of the caller's credentials; either may be unknown. */
export interface CallerEnvironment {
  account?: string;
  region?: string;
}

export interface SynthesizeOptions {
  /** The project directory (cdk.json, cdk.context.json). */
  cwd: string;
  /** --app: a command, or a directory holding a synthesized assembly. */
  app?: string;
  /** --output (default: cdk.json's `output`, then cdk.out). */
  output?: string;
  /** -c key=value arguments. */
  context?: string[];
  /** false sets CDK_VALIDATION=false, skipping aws-cdk-lib's built-in template validation. */
  validation?: boolean;
  /** Asked only when the app is run, so reading a synthesized assembly needs no credentials. */
  environment?: () => Promise<CallerEnvironment>;
  /** The AWS look-ups for missing context; undefined refuses them (--no-lookups). */
  lookups: ContextLookups | undefined;
  /** The environment the app inherits (default: process.env). */
  env?: NodeJS.ProcessEnv;
  onAppOutput?: (chunk: string) => void;
  onWarning?: (message: string) => void;
  /** Detail for --verbose. */
  onNote?: (message: string) => void;
}

/**
 * Runs the app (or reads `--app DIR`) and returns its cloud assembly. Missing
 * context the app reports is looked up, cached in cdk.context.json and the app
 * run again, a bounded number of times.
 */
export async function synthesize(options: SynthesizeOptions): Promise<CloudAssembly> {
  const baseEnv = options.env ?? process.env;
  const config = readProjectConfig(options.cwd);
  const source = resolveAppSource({ app: options.app, env: baseEnv, config, cwd: options.cwd });
  // Before a synthesized assembly is read, as the CDK CLI does: a bare -c is warned about either way.
  const { values: commandLine, ignored } = parseContextArgs(options.context ?? []);
  for (const arg of ignored) options.onWarning?.(`Context argument is not an assignment (key=value): ${arg}`);
  if (source.kind === 'assembly') return readAssembly(source.directory);

  const outdir = resolve(options.cwd, options.output ?? config.output ?? DEFAULT_OUTPUT);
  const caller = (await options.environment?.()) ?? {};
  if (!caller.account || !caller.region) {
    options.onNote?.(
      `Account/region unknown (${caller.account ?? 'no account'}, ${caller.region ?? 'no region'}): stacks without an explicit env synthesize environment-agnostic.`,
    );
  }
  let transient: ContextValues = {};
  const asked = new Set<string>();
  for (let round = 1; ; round++) {
    const context = {
      ...buildContext({
        project: config.context,
        cached: readContextFile(options.cwd),
        commandLine,
        versionReporting: config.versionReporting,
      }),
      ...transient,
    };
    mkdirSync(outdir, { recursive: true });
    // A stale manifest from an earlier run must not pass for this run's output.
    rmSync(join(outdir, MANIFEST_FILE), { force: true });
    await runApp({
      command: source.command,
      cwd: options.cwd,
      env: appEnvironment(baseEnv, { outdir, context, caller, validation: options.validation ?? true }),
      onOutput: options.onAppOutput ?? ((chunk) => process.stderr.write(chunk)),
    });
    if (!existsSync(join(outdir, MANIFEST_FILE))) {
      throw new CdkdError(
        'SYNTH_FAILED',
        `The app "${source.command}" exited successfully but wrote no cloud assembly to ${outdir}.`,
        {
          hint: 'Make sure the app calls app.synth() (a new App() reads CDK_OUTDIR) and does not override outdir.',
        },
      );
    }
    const missing = loadAssemblyManifest(outdir).missing ?? [];
    if (missing.length === 0) return readAssembly(outdir);
    const repeated = missing.filter((entry) => asked.has(entry.key));
    if (repeated.length > 0 || round >= MAX_LOOKUP_ROUNDS) {
      const keys = (repeated.length > 0 ? repeated : missing).map((entry) => entry.key).join(', ');
      throw new CdkdError(
        'CONTEXT_LOOKUP_LOOP',
        `The app still reports missing context after ${round} runs: ${keys}.`,
        {
          hint: 'Check that the app reads the context key it asks for, or set the value in cdk.context.json.',
        },
      );
    }
    missing.forEach((entry) => asked.add(entry.key));
    const resolved = await resolveMissingContext(missing, options.lookups);
    if (Object.keys(resolved.save).length > 0) {
      saveContextValues(options.cwd, resolved.save);
      options.onNote?.(
        `Stored ${Object.keys(resolved.save).join(', ')} in cdk.context.json; running the app again.`,
      );
    }
    transient = { ...transient, ...resolved.transient };
  }
}

function appEnvironment(
  base: NodeJS.ProcessEnv,
  input: { outdir: string; context: ContextValues; caller: CallerEnvironment; validation: boolean },
): NodeJS.ProcessEnv {
  return {
    ...base,
    CDK_OUTDIR: input.outdir,
    CDK_CONTEXT_JSON: JSON.stringify(input.context),
    // The schema version cdkd reads, as the CDK CLI announces its own.
    CDK_CLI_ASM_VERSION: Manifest.version(),
    ...(input.caller.account ? { CDK_DEFAULT_ACCOUNT: input.caller.account } : {}),
    ...(input.caller.region ? { CDK_DEFAULT_REGION: input.caller.region } : {}),
    ...(input.validation ? {} : { CDK_VALIDATION: 'false' }),
  };
}
