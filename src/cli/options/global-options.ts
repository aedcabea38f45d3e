import type { Command } from 'commander';

/** Options every command accepts (ARCHITECTURE.md, cli layer). */
export interface GlobalOptions {
  verbose?: boolean;
  profile?: string;
  caBundlePath?: string;
  region?: string;
  roleArn?: string;
  stateBucket?: string;
  statePrefix: string;
  yes?: boolean;
}

export function addGlobalOptions(program: Command): void {
  program
    .option('--verbose', 'print more detail, including the cause of errors')
    .option('--debug', 'the same as --verbose (the CDK CLI spelling)')
    .option('--no-color', 'no colours, even on a terminal (as NO_COLOR=1)')
    .option('--profile <name>', 'AWS profile to use (default: AWS_PROFILE or the default chain)')
    .option('--region <region>', 'AWS region (default: AWS_REGION, then the profile)')
    .option('--role-arn <arn>', 'act through this IAM role, assumed from the credentials in use')
    .option(
      '--ca-bundle-path <file>',
      'PEM certificates HTTPS calls to AWS trust, instead of the default roots (default: AWS_CA_BUNDLE)',
    )
    .option(
      '--state-bucket <name>',
      'S3 bucket holding cdkd state (default: CDKD_STATE_BUCKET, then cdkd-state-{accountId})',
    )
    .option('--state-prefix <prefix>', 'key prefix for state objects in the state bucket', 'cdkd')
    .option('-y, --yes', 'answer yes to every confirmation');
}

export function globalOptions(command: Command): GlobalOptions {
  const options = command.optsWithGlobals<GlobalOptions & { debug?: boolean }>();
  return options.debug ? { ...options, verbose: true } : options;
}

/** `--no-color` as the NO_COLOR convention, so every renderer (and the app) hears it. */
export function applyColorOption(command: Command): void {
  if (command.optsWithGlobals<{ color?: boolean }>().color === false) process.env.NO_COLOR = '1';
}
