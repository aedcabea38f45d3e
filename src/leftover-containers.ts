import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { processRunning } from './process-running.js';

const run = promisify(execFile);

/**
 * Containers a cdkd process ran and left behind when it was killed before it could remove
 * them (SIGKILL, a crash: `--rm` removes a container only once it exits). Each carries the
 * pid of the cdkd that ran it (`cdkd local start-service` in its name, the sandbox in a
 * label); a later cdkd removes those whose process no longer runs, and never another live
 * cdkd's.
 */
export interface OwnedContainer {
  name: string;
  /** The pid of the cdkd process that ran it. */
  pid: number;
}

/** The names of the containers whose cdkd process no longer runs: the ones to remove. */
export function leftoverContainers(
  containers: readonly OwnedContainer[],
  running: (pid: number) => boolean = processRunning,
): string[] {
  return containers.filter((container) => !running(container.pid)).map((container) => container.name);
}

/**
 * `<engine> ps -a --filter <filter> --format <format>`: a line per container, running or
 * not; rejects with the engine's error when it cannot list them (no daemon).
 */
export async function listContainers(
  engine: string,
  env: NodeJS.ProcessEnv,
  filter: string,
  format: string,
): Promise<string[]> {
  const { stdout } = await run(engine, ['ps', '-a', '--filter', filter, '--format', format], { env });
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `<engine> rm -f <names>`; rejects with the engine's error when it cannot remove them. */
export async function removeContainers(
  engine: string,
  env: NodeJS.ProcessEnv,
  names: readonly string[],
): Promise<void> {
  await run(engine, ['rm', '-f', ...names], { env });
}
