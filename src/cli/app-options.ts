import type { Command } from 'commander';
import { synthesize, type CallerEnvironment, type CloudAssembly } from '../assembly/index.js';
import { AwsClients } from '../aws/client-factory.js';
import { probeCallerEnvironment } from './caller-environment.js';
import { awsContextLookups } from '../context-providers/index.js';
import { globalOptions } from './global-options.js';

/** The options of every command that runs the CDK app. */
export interface AppOptions {
  app?: string;
  context: string[];
  output?: string;
  validation: boolean;
  /** false (--no-lookups) refuses to look missing context up. */
  lookups: boolean;
}

export function addAppOptions(command: Command): Command {
  return command
    .option('-a, --app <command>', 'the CDK app command, or a directory holding a synthesized cloud assembly')
    .option('-c, --context <key=value>', 'a context value for the app (repeatable)', collect, [])
    .option('-o, --output <dir>', 'where the app writes its cloud assembly (default: cdk.out)')
    .option('--no-validation', "skip aws-cdk-lib's built-in template validation (CDK_VALIDATION=false)")
    .option(
      '--no-lookups',
      'refuse to look missing context up in AWS: every value must be in cdk.context.json',
    );
}

/** Runs the app (or reads `--app DIR`) for a command, wiring the AWS look-ups. */
export function synthesizeFor(command: Command, options: AppOptions): Promise<CloudAssembly> {
  const global = globalOptions(command);
  const clients = new AwsClients({
    ...(global.region ? { region: global.region } : {}),
    ...(global.profile ? { profile: global.profile } : {}),
  });
  let caller: Promise<CallerEnvironment> | undefined;
  const environment = () => (caller ??= probeCallerEnvironment(clients));
  return synthesize({
    cwd: process.cwd(),
    ...(options.app ? { app: options.app } : {}),
    ...(options.output ? { output: options.output } : {}),
    context: options.context,
    validation: options.validation,
    environment,
    lookups: options.lookups ? awsContextLookups(clients, environment) : undefined,
    onWarning: (message) => process.stderr.write(`Warning: ${message}\n`),
    onNote: (message) => {
      if (global.verbose) process.stderr.write(`${message}\n`);
    },
  });
}

/** Commander's accumulator for a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
