import { synthesize, type CallerEnvironment, type CloudAssembly } from '../assembly/index.js';
import { AwsClients } from '../aws/client-factory.js';
import { probeCallerEnvironment } from './caller-environment.js';
import { lazyAwsContextLookups } from '../context-providers/lazy-lookups.js';
import type { GlobalOptions } from './global-options.js';

/** The options of every command that runs the CDK app. */
export interface AppOptions {
  app?: string;
  context: string[];
  output?: string;
  validation: boolean;
  /** false (--no-lookups) refuses to look missing context up. */
  lookups: boolean;
}

/** Runs the app (or reads `--app DIR`), wiring the AWS look-ups. */
export function synthesizeApp(global: GlobalOptions, options: AppOptions): Promise<CloudAssembly> {
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
    lookups: options.lookups ? lazyAwsContextLookups(clients, environment) : undefined,
    onWarning: (message) => process.stderr.write(`Warning: ${message}\n`),
    onNote: (message) => {
      if (global.verbose) process.stderr.write(`${message}\n`);
    },
  });
}
