import type { Command } from 'commander';
import type { CloudAssembly } from '../../assembly/index.js';
import { globalOptions } from './global-options.js';
import type { AppOptions } from './synthesize-app.js';

export type { AppOptions };

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

/** Runs the app (or reads `--app DIR`) for a command; synthesis and its AWS look-ups load on use. */
export async function synthesizeFor(command: Command, options: AppOptions): Promise<CloudAssembly> {
  const { synthesizeApp } = await import('./synthesize-app.js');
  return synthesizeApp(globalOptions(command), options, command.name());
}

/** Commander's accumulator for a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
