import type { Command } from 'commander';
import { CdkdError } from '../../errors.js';
import type { ResourceDrift } from '../../messages/index.js';
import { DEFAULT_CONCURRENCY, positiveInteger } from '../options/deploy-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { interruptible } from '../interrupts/interrupts.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

interface DriftOptions {
  all?: boolean;
  json?: boolean;
  fail?: boolean;
  accept?: boolean;
  revert?: boolean;
  concurrency: number;
}

export function registerDrift(program: Command): void {
  program
    .command('drift')
    .addOption(accountOption())
    .description('compare each resource AWS holds with what cdkd applied (from state; no synthesis)')
    .argument('[stacks...]', "the stacks, as cdkd's state names them (the only one when there is one)")
    .option('--all', "every stack in cdkd's state (in --region, when given)")
    .option('--json', 'print JSON (an array with --all or several stacks)')
    .option('--fail', 'exit 1 when anything drifted')
    .option('--accept', 'take the live values into state as what is applied')
    .option('--revert', 'write the applied values back to AWS')
    .option('--concurrency <n>', 'resources read at once', positiveInteger, DEFAULT_CONCURRENCY)
    .action(async (stackNames: string[], options: DriftOptions, cmd: Command) => {
      if (options.accept && options.revert) {
        throw new CdkdError('DRIFT_FLAGS_CONFLICT', '--accept and --revert go opposite ways.', {
          hint: 'Pass one of them.',
        });
      }
      const { driftFromState } = await import('../../toolkit/state/drift.js');
      const region = globalOptions(cmd).region;
      const mode = options.accept ? 'accept' : options.revert ? 'revert' : 'detect';
      const documents: Array<{ stack: string; mode: string; drifted: ResourceDrift[] }> = [];
      const single = !options.all && stackNames.length <= 1;
      const print = () =>
        process.stdout.write(`${JSON.stringify(single ? documents[0] : documents, null, 2)}\n`);
      const session = await stateSessionFor(cmd);
      const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
      const drift = (signal?: AbortSignal) =>
        driftFromState({
          session,
          selection: { stackNames, all: options.all === true, ...(region ? { region } : {}) },
          mode,
          concurrency: options.concurrency,
          ...(signal ? { signal } : {}),
          io: cliIoHost({ yes: globalOptions(cmd).yes ?? false, warn }),
          command: 'drift',
          onStack: (result) => {
            documents.push({ stack: result.stackName, mode, drifted: result.drifted });
            if (!options.json) writeDrift(result.stackName, result.drifted, mode);
          },
        });
      try {
        // Detecting only reads and takes no lock: a signal simply ends it.
        await (mode === 'detect' ? drift() : interruptible(`drift --${mode}`, { session, warn }, drift));
      } catch (error) {
        // Stacks read before a failure are printed too: with --accept or --revert, they changed.
        if (options.json && documents.length > 0) print();
        throw error;
      }
      if (options.json) print();
      else if (documents.length === 0)
        process.stderr.write(`cdkd's state holds no stack${region ? ` in ${region}` : ''}.\n`);
      const drifted = documents.flatMap((document) => document.drifted);
      const missing = drifted.some((resource) => resource.missing);
      if (mode === 'detect' && options.fail && drifted.length > 0) process.exitCode = 1;
      // A resource AWS no longer holds is neither accepted nor reverted: a person decides.
      else if (mode !== 'detect' && missing) process.exitCode = 2;
    });
}

function writeDrift(stackName: string, drifted: readonly ResourceDrift[], mode: string): void {
  if (drifted.length === 0) {
    process.stdout.write(`${stackName}: no drift.\n`);
    return;
  }
  const done = mode === 'accept' ? ' (accepted into state)' : mode === 'revert' ? ' (reverted)' : '';
  for (const resource of drifted) {
    const name = `${stackName} ${resource.logicalId} (${resource.type})`;
    if (resource.missing) {
      process.stdout.write(`${name}: ${resource.physicalId} no longer exists in AWS\n`);
      continue;
    }
    for (const drift of resource.properties) {
      process.stdout.write(
        `${name} ${drift.property}: applied ${show(drift.recorded)}, AWS holds ${show(drift.live)}${done}\n`,
      );
    }
  }
}

function show(value: unknown): string {
  return value === undefined ? '(not set)' : JSON.stringify(value);
}
