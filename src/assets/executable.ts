import { spawn } from 'node:child_process';
import { CdkdError } from '../errors.js';
import type { AssetRun } from './asset-run.js';
import type { AssetEvent } from './publisher.js';

/**
 * Runs an asset's build command (`executable` in the asset manifest) in the manifest's
 * directory and resolves to what it printed, trimmed: the path of the file to upload, or
 * the local image to push. The first run of each distinct command in a deploy run is
 * announced (`first: true`); later runs of the same command are repeats, for --verbose.
 */
export async function runBuildCommand(
  command: readonly string[],
  asset: { id: string; name: string; stack: string; cwd: string },
  run: AssetRun,
  onEvent: (event: AssetEvent) => void,
): Promise<string> {
  const key = JSON.stringify(command);
  const first = !run.announced.has(key);
  run.announced.add(key);
  onEvent({ type: 'build-command', assetId: asset.id, command: [...command], cwd: asset.cwd, first });
  const [program, ...args] = command;
  if (program === undefined) throw failed(command, asset, 'the command is empty');
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(program, args, { cwd: asset.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (cause: NodeJS.ErrnoException) =>
      reject(failed(command, asset, cause.code === 'ENOENT' ? `${program} was not found` : cause.message)),
    );
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8').trim());
      else {
        const printed = Buffer.concat(stderr).toString('utf8').trim().split('\n').slice(-20).join('\n');
        const how = signal ? `it was killed by ${signal}` : `it exited with code ${code}`;
        reject(failed(command, asset, printed ? `${how}:\n${printed}` : how));
      }
    });
  });
  if (output === '')
    throw failed(command, asset, 'it printed nothing, where the asset manifest expects its output');
  return output;
}

/** The announcement of a build command: cdkd runs what the cloud assembly names, with your credentials. */
export function buildCommandAnnouncement(event: Extract<AssetEvent, { type: 'build-command' }>): string {
  return [
    `Running the build command of asset ${event.assetId}, as the cloud assembly names it: ${event.command.join(' ')}`,
    `  in ${event.cwd}. It runs as your user, with your environment and AWS credentials; cdkd publishes what it`,
    '  prints. Read the assembly first if you did not synthesize it. (Announced once per command; --verbose shows repeats.)',
  ].join('\n');
}

function failed(command: readonly string[], asset: { name: string; stack: string }, why: string): CdkdError {
  return new CdkdError(
    'ASSET_BUILD_COMMAND_FAILED',
    `The build command of asset ${asset.name} of stack ${asset.stack} (${command.join(' ')}) failed: ${why}`,
    {
      hint: 'Run the command yourself in the asset manifest’s directory to see why, then re-run the deploy.',
    },
  );
}
