import { InvalidArgumentError, type Command } from 'commander';
import { collect } from './app-options.js';

/** Chosen from bench/deploy-engine.ts; see the README's "Concurrency" section. */
export const DEFAULT_CONCURRENCY = 32;
export const DEFAULT_STACK_CONCURRENCY = 4;

export interface DeployTuning {
  concurrency: number;
  stackConcurrency: number;
  parameters: string[];
  /** False with --no-previous-parameters. */
  previousParameters: boolean;
}

export function addDeployTuning(command: Command): Command {
  return command
    .option(
      '--concurrency <n>',
      'resources worked on at once per stack',
      positiveInteger,
      DEFAULT_CONCURRENCY,
    )
    .option(
      '--stack-concurrency <n>',
      'independent stacks deployed at once',
      positiveInteger,
      DEFAULT_STACK_CONCURRENCY,
    )
    .option('--parameters <KEY=VALUE>', 'a template parameter, or STACK:KEY=VALUE (repeatable)', collect, [])
    .option(
      '--no-previous-parameters',
      "a parameter not given takes its Default, not the value the stack's last deploy used",
    );
}

/** Commander's parser for a count flag. */
export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new InvalidArgumentError('expected a whole number of at least 1');
  return parsed;
}

/** --prefer-sdk-route and --pin-cc-api, for deploy and for diff, which plans as deploy would. */
export interface RoutingFlagOptions {
  preferSdkRoute?: true | string[];
  pinCcApi: string[];
}

export function addRoutingOptions(command: Command): Command {
  return command
    .option(
      '--prefer-sdk-route [TYPE:PROPERTY]',
      'keep the SDK provider for a property it does not send, left unsent; alone, for every such property (repeatable)',
      (value: string, previous: true | string[] | undefined) => [
        ...(Array.isArray(previous) ? previous : []),
        value,
      ],
    )
    .option(
      '--pin-cc-api <logicalId>',
      'keep this resource on Cloud Control when its type could return to the SDK provider (repeatable)',
      collect,
      [],
    );
}

export interface RecreateOptions {
  recreateViaCcApi: string[];
  recreateViaSdkProvider: string[];
}

/** `--recreate-via-cc-api` / `--recreate-via-sdk-provider` (spec 002). */
export function addRecreateOptions(command: Command): Command {
  return command
    .option(
      '--recreate-via-cc-api <logicalId>',
      'destroy the resource and re-create it through Cloud Control (repeatable)',
      collect,
      [],
    )
    .option(
      '--recreate-via-sdk-provider <logicalId>',
      "destroy the resource and re-create it through cdkd's SDK provider (repeatable)",
      collect,
      [],
    );
}

/** `--asset-parallelism` as the deploy takes it: a count, one for `--no-asset-parallelism`, else the default. */
export function assetParallelism(value: number | boolean | undefined): { assetParallelism?: number } {
  if (value === false) return { assetParallelism: 1 };
  return typeof value === 'number' ? { assetParallelism: value } : {};
}
