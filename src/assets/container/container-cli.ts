import { spawn } from 'node:child_process';
import { CdkdError } from '../../errors.js';

/** The Docker-compatible CLI assets are built with: `CDK_DOCKER`, as the CDK CLI reads it, else `docker`. */
export function containerCliName(env: NodeJS.ProcessEnv = process.env): string {
  return env.CDK_DOCKER || 'docker';
}

export interface CliRun {
  /** What the command is doing, for messages: `building image asset X (hash)`. */
  purpose: string;
  /** The asset it is for, named in the missing-CLI error. */
  asset: string;
  cwd?: string;
  /** Written to the command's stdin (a registry password), then closed. */
  input?: string;
}

/**
 * Runs `cli args...` to the end and resolves to its stdout. A CLI that is not on the PATH
 * is CONTAINER_CLI_NOT_FOUND, naming the asset and `CDK_DOCKER`; a non-zero exit is
 * CONTAINER_CLI_FAILED with the end of what it printed.
 */
export function runContainerCli(cli: string, args: readonly string[], run: CliRun): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cli, args, { cwd: run.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.input ?? '');
    child.on('error', (cause: NodeJS.ErrnoException) => {
      reject(
        cause.code === 'ENOENT'
          ? new CdkdError(
              'CONTAINER_CLI_NOT_FOUND',
              `Building image asset ${run.asset} needs the container CLI "${cli}", which is not on the PATH.`,
              {
                hint: 'Install Docker (or a Docker-compatible CLI such as podman or finch) and set CDK_DOCKER to its name or path when it is not "docker".',
                cause,
              },
            )
          : cause,
      );
    });
    child.on('close', (code, signal) => {
      if (code === 0) {
        resolve(Buffer.concat(stdout).toString('utf8'));
        return;
      }
      const printed = Buffer.concat([...stderr, ...stdout])
        .toString('utf8')
        .trim();
      reject(
        new CdkdError(
          'CONTAINER_CLI_FAILED',
          `${capitalize(run.purpose)} failed: ${cli} ${args[0]} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}.${printed ? `\n${tail(printed)}` : ''}`,
          {
            hint: `Run ${cli} ${args[0]} yourself to see the whole output, or set CDK_DOCKER to another Docker-compatible CLI.`,
          },
        ),
      );
    });
  });
}

/** The last lines of a CLI's output: where build tools put the error. */
function tail(text: string): string {
  return text.split('\n').slice(-20).join('\n');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
