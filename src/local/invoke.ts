import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { CloudAssembly } from '../assembly/index.js';
import { CdkdError } from '../errors.js';
import type { Launch } from '../lambda-runtime/launch.js';
import { isNodeRuntime, nodeLaunch } from '../lambda-runtime/node/node-runtime.js';
import { PYTHON_RUNTIME, pythonInterpreter, pythonLaunch } from '../lambda-runtime/python/python-runtime.js';
import { RESULT_FD, type ChildMessage, type FunctionErrorPayload } from '../lambda-runtime/protocol.js';
import { localCode } from './function-code.js';
import { findLocalFunction } from './function-target.js';

export interface LocalInvokeInput {
  assembly: CloudAssembly;
  /** `<stack>/<function>`. */
  target: string;
  /** The event, as JSON text. */
  event: string;
  /** The region the function believes it runs in. */
  region: string;
  /** What the handler prints, line by line, as Lambda logs it. */
  onLog: (line: string) => void;
  onWarning: (message: string) => void;
}

export type LocalInvokeOutcome = { result: string } | { error: FunctionErrorPayload };

const DEFAULT_TIMEOUT_SECONDS = 3;
const DEFAULT_MEMORY_MB = 128;

/**
 * `cdkd local invoke`: runs one invocation of a Node.js or Python function of the app on this
 * machine, on the runtime the sandbox runs functions on (src/lambda-runtime), with the
 * template's environment: its literal variables (one it cannot resolve without the
 * deployed stack is left out, with a warning), Lambda's reserved ones, and this shell's
 * AWS credentials and endpoint settings.
 */
export async function localInvoke(input: LocalInvokeInput): Promise<LocalInvokeOutcome> {
  const fn = findLocalFunction(input.assembly, input.target);
  const name = `${fn.stack.displayName}/${fn.logicalId}`;
  const launch = runtimeLaunch(fn.properties.Runtime, name);
  try {
    JSON.parse(input.event);
  } catch (cause) {
    throw new CdkdError('LOCAL_EVENT_INVALID', 'The event is not valid JSON.', {
      hint: 'Pass a JSON document with --event FILE or on stdin.',
      cause,
    });
  }
  const code = localCode(fn, input.assembly.directory, name, launch.extension);
  if (code.warning) input.onWarning(code.warning);
  try {
    return await runOnce(input, fn.properties, name, code.taskRoot, launch.start(code.taskRoot));
  } finally {
    if (code.temporary) rmSync(code.taskRoot, { recursive: true, force: true });
  }
}

/** How the function's runtime starts here, and the file extension its inline code takes. */
function runtimeLaunch(
  runtime: unknown,
  name: string,
): { start: (taskRoot: string) => Launch; extension: string } {
  if (typeof runtime === 'string' && isNodeRuntime(runtime))
    return { start: (taskRoot) => nodeLaunch({ taskRoot, layers: [] }), extension: '.js' };
  if (typeof runtime === 'string' && PYTHON_RUNTIME.test(runtime)) {
    const python = pythonInterpreter();
    if (python)
      return { start: (taskRoot) => pythonLaunch({ taskRoot, layers: [] }, python), extension: '.py' };
    throw new CdkdError(
      'LOCAL_RUNTIME_UNSUPPORTED',
      `Function ${name} runs ${runtime}, and this machine has no python3.`,
      {
        hint: 'Install Python 3 (python3 on the PATH), then run cdkd local invoke again.',
      },
    );
  }
  throw new CdkdError(
    'LOCAL_RUNTIME_UNSUPPORTED',
    `Function ${name} has the runtime ${typeof runtime === 'string' ? runtime : '(none: an image function)'}; cdkd local invoke runs Node.js and Python handlers.`,
    { hint: 'Invoke it deployed (the sandbox runs it), or with the CDK CLI / SAM for other runtimes.' },
  );
}

async function runOnce(
  input: LocalInvokeInput,
  properties: Record<string, unknown>,
  name: string,
  taskRoot: string,
  launch: Launch,
): Promise<LocalInvokeOutcome> {
  const functionName =
    typeof properties.FunctionName === 'string' ? properties.FunctionName : name.replace('/', '-');
  const timeoutSeconds =
    typeof properties.Timeout === 'number' ? properties.Timeout : DEFAULT_TIMEOUT_SECONDS;
  const env = {
    ...passThrough(process.env),
    ...templateVariables(properties, name, input.onWarning),
    ...launch.env,
    AWS_REGION: input.region,
    AWS_DEFAULT_REGION: input.region,
    AWS_EXECUTION_ENV: `AWS_Lambda_${String(properties.Runtime)}`,
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(
      typeof properties.MemorySize === 'number' ? properties.MemorySize : DEFAULT_MEMORY_MB,
    ),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${functionName}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'local',
    LAMBDA_TASK_ROOT: taskRoot,
    LAMBDA_RUNTIME_DIR: taskRoot,
    _HANDLER: typeof properties.Handler === 'string' ? properties.Handler : 'index.handler',
  };
  const child = spawn(launch.command, launch.args, {
    cwd: taskRoot,
    env,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const requestId = randomUUID();
  const outcome = new Promise<LocalInvokeOutcome>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        resolve({
          error: {
            errorType: 'Sandbox.Timedout',
            errorMessage: `Task timed out after ${timeoutSeconds}.00 seconds`,
          },
        });
      },
      // The clock starts once the handler is loaded; the margin covers loading it.
      timeoutSeconds * 1000 + 10_000,
    );
    const settle = (value: LocalInvokeOutcome) => {
      clearTimeout(timer);
      resolve(value);
    };
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', input.onLog);
    }
    createInterface({ input: child.stdio[RESULT_FD] as Readable }).on('line', (line) => {
      const message = JSON.parse(line) as ChildMessage;
      if (message.type === 'log' || message.type === 'notice') input.onLog(message.text);
      else if (message.type === 'result') settle({ result: message.payload });
      else if (message.type === 'error') settle({ error: message.error });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      settle({
        error: {
          errorType: 'Runtime.ExitError',
          errorMessage: `RequestId: ${requestId} Error: Runtime exited with code ${code}`,
        },
      });
    });
  });
  child.stdin.write(
    `${JSON.stringify({
      requestId,
      payload: input.event,
      timeoutMs: timeoutSeconds * 1000,
      invokedFunctionArn: `arn:aws:lambda:${input.region}:000000000000:function:${functionName}`,
    })}\n`,
  );
  try {
    return await outcome;
  } finally {
    child.stdin.end();
    child.kill();
  }
}

/** What of this shell the handler gets: the path, locale, and AWS credentials and endpoint settings. */
function passThrough(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        (['PATH', 'HOME', 'LANG'].includes(entry[0]) || entry[0].startsWith('AWS_')),
    ),
  );
}

/** The template's `Environment.Variables` that are plain strings; the others need the deployed stack. */
function templateVariables(
  properties: Record<string, unknown>,
  name: string,
  warn: (message: string) => void,
): Record<string, string> {
  const variables = ((properties.Environment as { Variables?: unknown } | undefined)?.Variables ??
    {}) as Record<string, unknown>;
  const literal: Record<string, string> = {};
  const unresolved: string[] = [];
  for (const [key, value] of Object.entries(variables)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      literal[key] = String(value);
    else unresolved.push(key);
  }
  if (unresolved.length > 0)
    warn(
      `Function ${name}: the environment variables ${unresolved.join(', ')} are computed at deploy time (a reference to another resource), so they are left out.`,
    );
  return literal;
}
