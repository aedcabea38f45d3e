import { createWriteStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import type { ChildMessage, FunctionErrorPayload, InvokeMessage } from '../protocol.js';
import { RESULT_FD } from '../protocol.js';
import { routeHttpsToSandbox } from './https-to-sandbox.js';
import { SDK_SETTINGS_VARIABLE, type SdkSettings } from './sdk-cache.js';
import { resolveSdkFromCache } from './sdk-resolution.js';

/**
 * The Node.js runtime inside a function's child process: loads `_HANDLER` from
 * `LAMBDA_TASK_ROOT` (ESM or CommonJS), then runs one invocation per request line, async or
 * callback style, with Lambda's context object. Started by the sandbox, never imported.
 */

type Handler = (
  event: unknown,
  context: unknown,
  callback: (error?: unknown, result?: unknown) => void,
) => unknown;

class RuntimeError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const results = createWriteStream('', { fd: RESULT_FD });
const send = (message: ChildMessage): void => {
  results.write(`${JSON.stringify(message)}\n`);
};

let currentRequestId: string | undefined;
for (const [method, level] of [
  ['log', 'INFO'],
  ['info', 'INFO'],
  ['warn', 'WARN'],
  ['error', 'ERROR'],
  ['debug', 'DEBUG'],
  ['trace', 'TRACE'],
] as const) {
  console[method] = (...args: unknown[]) => {
    const text = format(...args);
    send({
      type: 'log',
      text: `${new Date().toISOString()}\t${currentRequestId ?? 'undefined'}\t${level}\t${text}`,
    });
  };
}

routeHttpsToSandbox(process.env.AWS_ENDPOINT_URL);

// SDK packages the sandbox does not ship are installed on first use; the settings are the
// sandbox's, not the function's, so they leave its environment before its code loads.
const sdk = process.env[SDK_SETTINGS_VARIABLE];
delete process.env[SDK_SETTINGS_VARIABLE];
const sdkNotices = sdk
  ? resolveSdkFromCache(JSON.parse(sdk) as SdkSettings, (text) => send({ type: 'notice', text }))
  : () => undefined;

// Init: the module loads as the process starts, before (and not timed with) the first invocation.
const handler: Promise<Handler> = loadHandler();
// Its failure is reported to each invocation, not as an unhandled rejection at start.
handler.catch(() => {});

async function loadHandler(): Promise<Handler> {
  const spec = process.env._HANDLER ?? '';
  const root = process.env.LAMBDA_TASK_ROOT ?? process.cwd();
  const slash = spec.lastIndexOf('/');
  const dir = spec.slice(0, slash + 1);
  const [moduleName, ...path] = spec.slice(slash + 1).split('.');
  if (!moduleName || path.length === 0) {
    throw new RuntimeError(
      'Runtime.MalformedHandlerName',
      `Bad handler ${spec}: expected <module>.<function>`,
    );
  }
  const base = join(root, dir, moduleName);
  const file = ['.js', '.mjs', '.cjs']
    .map((extension) => base + extension)
    .find((candidate) => existsSync(candidate));
  if (!file) {
    throw new RuntimeError('Runtime.ImportModuleError', `Error: Cannot find module '${dir}${moduleName}'`);
  }
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof SyntaxError) throw new RuntimeError('Runtime.UserCodeSyntaxError', String(error));
    const code = (error as { code?: unknown })?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new RuntimeError('Runtime.ImportModuleError', String(error));
    }
    throw error;
  }
  // A CommonJS module's exports are its namespace's default.
  const found = resolvePath(loaded, path) ?? resolvePath(loaded.default, path);
  if (typeof found !== 'function') {
    throw new RuntimeError(
      'Runtime.HandlerNotFound',
      `${dir}${moduleName}.${path.join('.')} is undefined or not exported`,
    );
  }
  return found as Handler;
}

function resolvePath(value: unknown, path: string[]): unknown {
  let current = value;
  for (const name of path) {
    if ((typeof current !== 'object' && typeof current !== 'function') || current === null) return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

function context(message: InvokeMessage, deadlineMs: number): Record<string, unknown> {
  const env = process.env;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: message.invokedFunctionArn,
    memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: message.requestId,
    logGroupName: env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: env.AWS_LAMBDA_LOG_STREAM_NAME,
    ...(message.clientContext
      ? {
          clientContext: JSON.parse(Buffer.from(message.clientContext, 'base64').toString('utf8')) as unknown,
        }
      : {}),
    getRemainingTimeInMillis: () => Math.max(0, deadlineMs - Date.now()),
  };
}

/** Runs one invocation: settles on the returned promise, or on the callback (or context.done). */
function run(fn: Handler, event: unknown, ctx: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const callback = (error?: unknown, result?: unknown): void => {
      if (settled) return;
      settled = true;
      if (error !== undefined && error !== null) reject(error);
      else resolve(result);
    };
    Object.assign(ctx, {
      done: callback,
      succeed: (result: unknown) => callback(null, result),
      fail: (error: unknown) => callback(error ?? new Error('handled')),
    });
    try {
      const returned = fn(event, ctx, callback);
      if (returned && typeof (returned as Promise<unknown>).then === 'function') {
        (returned as Promise<unknown>).then(
          (result) => callback(null, result),
          (error: unknown) => callback(error ?? new Error('Promise rejected without a reason')),
        );
      } else if (fn.length < 3) {
        // A synchronous handler without a callback answers null, as on Lambda.
        callback(null, null);
      }
    } catch (error) {
      callback(error);
    }
  });
}

function errorPayload(error: unknown): FunctionErrorPayload {
  if (error instanceof Error) {
    return {
      errorType: error.name || error.constructor?.name || 'Error',
      errorMessage: error.message,
      trace: (error.stack ?? '').split('\n'),
    };
  }
  return {
    errorType: typeof error,
    errorMessage: typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error)),
    trace: [],
  };
}

async function invoke(message: InvokeMessage): Promise<void> {
  currentRequestId = message.requestId;
  try {
    const fn = await handler;
    const deadlineMs = Date.now() + message.timeoutMs;
    send({ type: 'started', requestId: message.requestId, deadlineMs });
    const result = await run(fn, JSON.parse(message.payload) as unknown, context(message, deadlineMs));
    sdkNotices();
    send({ type: 'result', requestId: message.requestId, payload: JSON.stringify(result ?? null) });
  } catch (error) {
    sdkNotices();
    const payload = errorPayload(error);
    console.error(`${payload.errorType}: ${payload.errorMessage}`);
    send({ type: 'error', requestId: message.requestId, error: payload });
  }
}

process.on('unhandledRejection', (reason) => {
  const payload = errorPayload(reason);
  console.error(`Unhandled Promise Rejection\t${JSON.stringify(payload)}`);
  process.exit(128);
});

// The sandbox was killed (this process was handed to init) while a handler still runs.
const sandboxPid = process.ppid;
setInterval(() => process.ppid !== sandboxPid && process.exit(0), 1000).unref();

// One invocation at a time, as in a Lambda execution environment.
let queue = Promise.resolve();
createInterface({ input: process.stdin })
  .on('line', (line) => {
    queue = queue.then(() => invoke(JSON.parse(line) as InvokeMessage));
  })
  // The sandbox is gone: nothing more will come.
  .on('close', () => process.exit(0));
