import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { InvokeMessage } from '../../../../../lambda-runtime/protocol.js';
import type { RunOutcome } from '../container.js';
import { engineCannotPull, engineCannotRun, imageRunArgs, type ImageRunInput } from './image-engine.js';
import { RuntimeApi } from './runtime-api.js';

/** Lambda's limit on init (the runtime starting until it asks for its invocation), which Timeout does not include. */
const INIT_LIMIT_MS = 10_000;
/** `run` exit statuses that are the engine's own failure, not the container's (Docker's and podman's convention). */
const ENGINE_FAILED = new Set([125, 126]);
/** The container's command could not be found. */
const NOT_FOUND = 127;

/**
 * Every running container by name, removed if the sandbox's process exits without stopping
 * the sandbox (the engine keeps a container running after its `run` client is gone).
 */
const liveContainers = new Map<string, string>();
let exitHooked = false;

function track(engine: string, name: string): void {
  liveContainers.set(name, engine);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const [container, owner] of liveContainers) {
      spawnSync(owner, ['rm', '--force', container], { stdio: 'ignore' });
    }
  });
}

export interface ImageRunRequest extends Omit<ImageRunInput, 'environment'> {
  engine: string;
  functionName: string;
  /** The function's variables (Lambda's reserved ones and the role's credentials included). */
  environment: Record<string, string>;
  /** Variables the engine needs to pull from the sandbox's registry (auth file, registries.conf). */
  pullEnvironment: Record<string, string>;
  message: InvokeMessage;
  onLog: (line: string) => void;
  /** Aborted when the sandbox stops: the container is removed and the invocation ends. */
  signal: AbortSignal;
}

/**
 * One invocation of an image function in a container of its own: the engine pulls the image
 * from the sandbox's registry unless it has it, runs it with AWS_LAMBDA_RUNTIME_API pointing at
 * a runtime API served for this invocation, and removes the container once the runtime
 * reports, the function times out (Lambda's timeout error) or the sandbox stops.
 */
export async function runImage(request: ImageRunRequest): Promise<RunOutcome> {
  await ensureImage(request);
  const { message } = request;
  const api = await RuntimeApi.start({
    requestId: message.requestId,
    payload: message.payload,
    timeoutMs: message.timeoutMs,
    invokedFunctionArn: message.invokedFunctionArn,
    ...(message.clientContext ? { clientContext: message.clientContext } : {}),
  });
  const environment = { ...request.environment, AWS_LAMBDA_RUNTIME_API: api.address };
  const child = spawn(request.engine, imageRunArgs({ ...request, environment }), {
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(request.engine, request.name);
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', request.onLog);
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr.push(line);
    request.onLog(line);
  });
  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((done) => {
    child.once('error', (error) => done({ code: null, signal: null, error }));
    child.once('close', (code, signal) => done({ code, signal }));
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), INIT_LIMIT_MS + message.timeoutMs);
    api.onNext = (deadlineMs) => {
      clearTimeout(timer);
      timer = setTimeout(() => done('timeout'), Math.max(0, deadlineMs - Date.now()));
    };
  });
  const stopped = new Promise<'stopped'>((done) => {
    if (request.signal.aborted) done('stopped');
    request.signal.addEventListener('abort', () => done('stopped'), { once: true });
  });
  try {
    const first = await Promise.race([api.reported, exited, timedOut, stopped]);
    if (first === 'timeout' || first === 'stopped') {
      return {
        kind: 'error',
        error: {
          errorType: 'Sandbox.Timedout',
          errorMessage:
            first === 'timeout'
              ? `RequestId: ${message.requestId} Error: Task timed out after ${(message.timeoutMs / 1000).toFixed(2)} seconds`
              : `RequestId: ${message.requestId} Error: the sandbox stopped`,
        },
      };
    }
    if ('kind' in first) return first.kind === 'result' ? first : { kind: 'error', error: first.error };
    if (first.error) throw engineCannotRun(request.functionName, request.engine, first.error.message, '');
    if (!api.fetched && first.code !== null && ENGINE_FAILED.has(first.code)) {
      throw engineCannotRun(
        request.functionName,
        request.engine,
        `exit status ${first.code}`,
        stderr.join('\n'),
      );
    }
    const status = first.signal ? `signal: ${first.signal.toLowerCase()}` : `exit status ${first.code}`;
    return {
      kind: 'error',
      error:
        !api.fetched && first.code === NOT_FOUND
          ? {
              errorType: 'Runtime.InvalidEntrypoint',
              errorMessage: `RequestId: ${message.requestId} Error: the container's entry point could not be run (${status})`,
            }
          : {
              errorType: 'Runtime.ExitError',
              errorMessage: `RequestId: ${message.requestId} Error: Runtime exited with error: ${status}`,
            },
    };
  } finally {
    clearTimeout(timer);
    await removeContainer(request.engine, request.name);
    liveContainers.delete(request.name);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    api.close();
  }
}

/** The engine's copy of the image, pulled from the sandbox's registry when it has none. */
async function ensureImage(request: ImageRunRequest): Promise<void> {
  if ((await engineCall(request.engine, ['image', 'inspect', request.image])).code === 0) return;
  const pulled = await engineCall(request.engine, ['pull', request.image], request.pullEnvironment);
  if (pulled.code !== 0) {
    throw engineCannotPull(request.functionName, request.engine, request.image, pulled.stderr);
  }
}

/**
 * Kills and removes the container (killing `run` alone leaves podman's container running;
 * `rm --force` alone waits out a stop timeout, as a runtime that is PID 1 ignores SIGTERM).
 */
export async function removeContainer(engine: string, name: string): Promise<void> {
  await engineCall(engine, ['kill', '--signal', 'KILL', name]);
  await engineCall(engine, ['rm', '--force', name]);
}

function engineCall(
  engine: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(engine, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', (error) => done({ code: null, stderr: error.message }));
    child.once('close', (code) => done({ code, stderr: Buffer.concat(chunks).toString('utf8') }));
  });
}
