import { synthesize, type CallerEnvironment, type CloudAssembly } from '../../assembly/index.js';
import { AwsClients } from '../../aws/client-factory.js';
import { probeCallerEnvironment } from './caller-environment.js';
import { lazyAwsContextLookups } from '../../context-providers/lazy-lookups.js';
import type { GlobalOptions } from './global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { ioMessage, type CommandName } from '../../messages/index.js';

/** The options of every command that runs the CDK app. */
export interface AppOptions {
  app?: string;
  context: string[];
  output?: string;
  validation: boolean;
  /** false (--no-lookups) refuses to look missing context up. */
  lookups: boolean;
}

/** Runs the app (or reads `--app DIR`) for `command`, wiring the AWS look-ups; its output goes to the IO host. */
export function synthesizeApp(
  global: GlobalOptions,
  options: AppOptions,
  command: CommandName,
): Promise<CloudAssembly> {
  const clients = new AwsClients({
    ...(global.region ? { region: global.region } : {}),
    ...(global.profile ? { profile: global.profile } : {}),
    ...(global.caBundlePath ? { caBundlePath: global.caBundlePath } : {}),
  });
  const io = cliIoHost({
    yes: global.yes ?? false,
    warn: (message) => process.stderr.write(`Warning: ${message}\n`),
    // Synthesis detail is for --verbose.
    note: (line) => {
      if (global.verbose) process.stderr.write(`${line}\n`);
    },
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
    // The assembly floor sits below the IO host: its callbacks are where the messages start.
    onAppOutput: (chunk) => void io.notify(ioMessage(command, 'CDKD_I1000', chunk, { chunk })),
    onWarning: (message) => void io.notify(ioMessage(command, 'CDKD_W9000', message, {})),
    onNote: (message) => void io.notify(ioMessage(command, 'CDKD_I9001', message, {})),
  });
}
