import type { Command } from 'commander';
import { CdkdError } from '../../errors.js';
import { globalOptions } from '../options/global-options.js';
import type { ProfileName } from '../../latency-profiles/index.js';

interface SandboxCommandOptions {
  port: string;
  host: string;
  dataDir?: string;
  accountId: string;
  enforceIam?: boolean;
  latencyProfile: string;
  latencyTimeScale: string;
}

export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description(
      'run a local AWS-compatible endpoint (S3, Lambda, DynamoDB, SQS, SNS, IAM, CloudFormation, Cloud Control and more) to deploy to without an AWS account',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4566')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'keep state in this directory across restarts (default: in memory)')
    .option('--account-id <id>', 'the 12-digit account id the sandbox reports', '000000000000')
    .option(
      '--enforce-iam',
      "check calls made with assumed-role credentials against the role's IAM policies and permissions boundary",
    )
    .option(
      '--latency-profile <name>',
      `how long calls and resources take: aws (AWS's per-type times, propagation windows and Cloud Control's overhead), flat (30 ms a call, 1 s for IAM roles and functions) or none`,
      'none',
    )
    .option(
      '--latency-time-scale <factor>',
      'run the latency profile this many times faster (10: a 2-minute NAT gateway takes 12 s)',
      '1',
    )
    .action(async (options: SandboxCommandOptions, command: Command) => {
      const port = parsePort(options.port);
      const latencyProfile = await parseLatency(options.latencyProfile, options.latencyTimeScale);
      if (!/^\d{12}$/.test(options.accountId)) {
        throw new CdkdError(
          'SANDBOX_INVALID_OPTION',
          `--account-id must be 12 digits, got '${options.accountId}'`,
        );
      }
      const { startSandbox } = await import('../../sandbox/server.js');
      const sandbox = await startSandbox({
        port,
        host: options.host,
        dataDir: options.dataDir,
        accountId: options.accountId,
        region: globalOptions(command).region,
        enforceIam: options.enforceIam === true,
        ...(latencyProfile.profile !== 'none' && { latencyProfile }),
      }).catch((error: unknown) => {
        throw listenError(error, options.host, port);
      });
      // Listening for Ctrl-C before saying so: a signal sent on seeing the line stops it cleanly.
      const stopped = new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      process.stdout.write(
        [
          `cdkd sandbox listening on ${sandbox.url}`,
          `  state: ${options.dataDir ?? 'in memory (use --data-dir to keep it)'}; stop with Ctrl-C`,
          `  latency: ${latencyProfile.profile === 'none' ? "none (use --latency-profile aws to answer in AWS's time)" : `the ${latencyProfile.profile} profile${latencyProfile.timeScale === 1 ? '' : `, ${latencyProfile.timeScale}x faster`} (GET ${sandbox.url}/_sandbox/latency)`}`,
          `  IAM: ${options.enforceIam ? "assumed-role calls checked against the role's policies" : 'every call allowed (use --enforce-iam to check assumed roles)'}`,
          `  export AWS_ENDPOINT_URL=${sandbox.url}`,
          `  deployed APIs and function URLs, with their local URLs: curl ${sandbox.url}/_sandbox/endpoints`,
          '',
        ].join('\n'),
      );
      const signal = await stopped;
      process.stdout.write(`${signal}: stopping the sandbox\n`);
      await sandbox.stop();
    });
}

async function parseLatency(
  name: string,
  timeScale: string,
): Promise<{ profile: ProfileName; timeScale: number }> {
  // Loaded here, not with the command line: the profiles are the sandbox's and the ETA's.
  const { isProfileName, PROFILE_NAMES } = await import('../../latency-profiles/index.js');
  if (!isProfileName(name)) {
    throw new CdkdError(
      'SANDBOX_INVALID_OPTION',
      `--latency-profile must be one of ${PROFILE_NAMES.join(', ')}, got '${name}'`,
    );
  }
  const scale = Number(timeScale);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new CdkdError(
      'SANDBOX_INVALID_OPTION',
      `--latency-time-scale must be a positive number, got '${timeScale}'`,
    );
  }
  return { profile: name, timeScale: scale };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new CdkdError('SANDBOX_INVALID_OPTION', `--port must be a number from 0 to 65535, got '${value}'`);
  }
  return port;
}

function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new CdkdError('SANDBOX_PORT_IN_USE', `port ${port} on ${host} is already in use`, {
      hint: 'Stop whatever holds it, or pick another port with --port (0 picks a free one).',
      cause: error,
    });
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CdkdError('SANDBOX_INVALID_OPTION', `cannot listen on host ${host}`, {
      hint: 'Use an address of this machine with --host, e.g. 127.0.0.1.',
      cause: error,
    });
  }
  return error;
}
