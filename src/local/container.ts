import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CdkdError } from '../errors.js';
import type { FunctionErrorPayload } from '../lambda-runtime/protocol.js';
import { INVOCATION_PREFIX, removeLeftoverInvocations } from './leftover-invocations.js';

/** The AWS Lambda base image for a runtime (`nodejs22.x` → `public.ecr.aws/lambda/nodejs:22`), or undefined. */
export function lambdaBaseImage(runtime: string): string | undefined {
  const node = /^nodejs(\d+)\.x$/.exec(runtime);
  if (node) return `public.ecr.aws/lambda/nodejs:${node[1]}`;
  const python = /^python(3\.\d+)$/.exec(runtime);
  if (python) return `public.ecr.aws/lambda/python:${python[1]}`;
  return undefined;
}

export interface ContainerRun {
  image: string;
  /** The function's Handler: the base image's command. */
  handler: string;
  /** Mounted read-only at /var/task. */
  taskRoot: string;
  /** The function's layers merged, mounted read-only at /opt. */
  optDir?: string;
  /** The function's environment inside the container. */
  env: Record<string, string>;
  /** The host port the image's runtime interface emulator (port 8080 inside) is published on. */
  hostPort: number;
  name: string;
}

/**
 * The engine's `run` command for one function: the base image's entrypoint starts the
 * runtime interface emulator on port 8080, published on the loopback only. Variables are
 * passed by name (`-e NAME`) with their values in the engine's own environment, so a role's
 * credentials never show in the process list.
 */
export function containerRunCommand(run: ContainerRun): { args: string[]; env: Record<string, string> } {
  const names = Object.keys(run.env).sort();
  return {
    args: [
      'run',
      '--rm',
      '--name',
      run.name,
      '-p',
      `127.0.0.1:${run.hostPort}:8080`,
      '-v',
      `${run.taskRoot}:/var/task:ro`,
      ...(run.optDir ? ['-v', `${run.optDir}:/opt:ro`] : []),
      ...names.flatMap((name) => ['-e', name]),
      run.image,
      run.handler,
    ],
    env: run.env,
  };
}

export type ContainerOutcome = { result: string } | { error: FunctionErrorPayload };

const INVOCATIONS = '/2015-03-31/functions/function/invocations';

/**
 * Runs one invocation in a container: starts it, posts the event to the emulator once it
 * listens, and removes the container (and, first, those a killed cdkd left). An engine that is not on the PATH is
 * LOCAL_CONTAINER_ENGINE_MISSING; one that exits before answering (an image it cannot pull, a
 * run it is not allowed: what it printed goes to the log) is LOCAL_CONTAINER_FAILED.
 */
export async function invokeInContainer(
  engine: string,
  run: Omit<ContainerRun, 'hostPort' | 'name'>,
  event: string,
  timeoutMs: number,
  onLog: (line: string) => void,
): Promise<ContainerOutcome> {
  await removeLeftoverInvocations(engine, onLog);
  const hostPort = await freePort();
  const name = `${INVOCATION_PREFIX}${process.pid}-${hostPort}`;
  const command = containerRunCommand({ ...run, hostPort, name });
  const child = spawn(engine, command.args, {
    env: { ...process.env, ...command.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') onLog(line);
    });
  }
  const exited = new Promise<never>((_, reject) => {
    child.on('error', (cause: NodeJS.ErrnoException) =>
      reject(
        cause.code === 'ENOENT'
          ? new CdkdError(
              'LOCAL_CONTAINER_ENGINE_MISSING',
              `--container needs the container engine "${engine}", which is not on the PATH.`,
              {
                hint: 'Install Docker (or podman or finch) and set CDK_DOCKER to its name when it is not "docker"; or run without --container.',
                cause,
              },
            )
          : cause,
      ),
    );
    child.on('close', (code) =>
      reject(
        new CdkdError(
          'LOCAL_CONTAINER_FAILED',
          `${engine} run ${run.image} exited with code ${code} before the function answered (what it printed is above).`,
          {
            hint: `The engine must be able to pull ${run.image} and run containers; try "${engine} run --rm ${run.image} ${run.handler}" yourself, or run without --container.`,
          },
        ),
      ),
    );
  });
  const stop = new AbortController();
  try {
    return await Promise.race([exited, post(hostPort, event, timeoutMs, stop.signal)]);
  } finally {
    stop.abort();
    await removeContainer(engine, name, child);
  }
}

/** How long the engine's client gets to stop and remove the container after SIGTERM. */
const REMOVE_GRACE_MS = 10_000;

/**
 * Stops the container and waits until the engine has removed it, so nothing of it outlives
 * the command: podman's `run --rm` client removes the container (and the published port's
 * forwarding rules) only after the container exits, and a removal cut short (its storage gone,
 * its process killed) leaves a rule sending that port to nowhere. A client still running after
 * the grace is past is killed, and the engine removes the container by name.
 */
async function removeContainer(engine: string, name: string, child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise<boolean>((resolve) => child.once('close', () => resolve(true)));
  child.kill('SIGTERM');
  if (await Promise.race([closed, sleep(REMOVE_GRACE_MS, false, { ref: false })])) return;
  child.kill('SIGKILL');
  await new Promise<void>((resolve) =>
    spawn(engine, ['rm', '-f', name], { stdio: 'ignore' })
      .once('close', () => resolve())
      .once('error', () => resolve()),
  );
}

/** Posts the event until the emulator listens (it starts with the container), then reads its answer. */
async function post(
  port: number,
  event: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ContainerOutcome> {
  const deadline = Date.now() + timeoutMs + 60_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}${INVOCATIONS}`, {
        method: 'POST',
        body: event,
        signal,
      });
      const text = await response.text();
      return functionError(text) ?? { result: text };
    } catch (error) {
      // Stopped: the container exited (that error is the one reported) or answered.
      if (signal.aborted || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The emulator answers a failed handler with Lambda's error document as the body. */
function functionError(text: string): ContainerOutcome | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { errorType?: unknown }).errorType === 'string' &&
      typeof (parsed as { errorMessage?: unknown }).errorMessage === 'string'
    )
      return { error: parsed as FunctionErrorPayload };
  } catch {
    return undefined;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
