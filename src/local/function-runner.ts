import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerCliName } from '../assets/container/container-cli.js';
import type { CloudAssembly } from '../assembly/index.js';
import { CdkdError } from '../errors.js';
import type { Launch } from '../lambda-runtime/launch.js';
import { isNodeRuntime, nodeLaunch } from '../lambda-runtime/node/node-runtime.js';
import { PYTHON_RUNTIME, pythonInterpreter, pythonLaunch } from '../lambda-runtime/python/python-runtime.js';
import type { FunctionErrorPayload } from '../lambda-runtime/protocol.js';
import { invokeInContainer, lambdaBaseImage } from './container.js';
import type { DeployedFunction, DeployedFunctionReader } from './deployed-function.js';
import { localCode } from './function-code.js';
import type { LocalFunction } from './function-target.js';
import { localLayers } from './layers.js';
import { runInProcess } from './process-invocation.js';

export type LocalInvokeOutcome = { result: string } | { error: FunctionErrorPayload };

export interface LocalRunnerOptions {
  assembly: CloudAssembly;
  /** The region the function believes it runs in (an environment-agnostic stack's). */
  region: string;
  /** Reads the deployed function (environment, role); absent: the template's environment only. */
  deployed?: DeployedFunctionReader;
  /** Run in the Lambda base image with this container engine instead of on this machine. */
  container?: boolean;
  /** What the handler prints, line by line, as Lambda logs it. */
  onLog: (line: string) => void;
  onWarning: (message: string) => void;
  onInfo: (message: string) => void;
}

interface PreparedFunction {
  name: string;
  runtime: string;
  handler: string;
  taskRoot: string;
  layers: string[];
  launch?: Launch;
  /** The function's own variables, Lambda's reserved ones and credentials: what the handler sees. */
  env: Record<string, string>;
  timeoutSeconds: number;
  functionArn: string;
}

const DEFAULT_TIMEOUT_SECONDS = 3;
const DEFAULT_MEMORY_MB = 128;

/**
 * Runs the app's functions on this machine: Node.js and Python handlers on the runtimes the
 * sandbox runs functions on (src/lambda-runtime), or in their Lambda base image with the
 * container engine. A function is prepared once (its code, layers, environment and
 * credentials) and each invocation starts a fresh runtime process that loads the handler
 * from disk, so an edit to its code directory shows on the next invocation.
 */
export class LocalRunner {
  private readonly prepared = new Map<string, Promise<PreparedFunction>>();
  private readonly temporary: string[] = [];

  constructor(private readonly options: LocalRunnerOptions) {}

  invoke(fn: LocalFunction, event: string): Promise<LocalInvokeOutcome> {
    return this.ready(fn).then((ready) => this.run(ready, event));
  }

  /**
   * Prepares the function now (its code and layers found, the path rules applied, the
   * deployed function read), so a server refuses bad code before it serves a request.
   */
  async check(fn: LocalFunction): Promise<void> {
    await this.ready(fn);
  }

  private ready(fn: LocalFunction): Promise<PreparedFunction> {
    const key = `${fn.stack.displayName}/${fn.logicalId}`;
    let prepared = this.prepared.get(key);
    if (!prepared) {
      prepared = this.prepare(fn);
      this.prepared.set(key, prepared);
      // A failure to prepare is reported to this caller and tried again by the next.
      prepared.catch(() => this.prepared.delete(key));
    }
    return prepared;
  }

  /** Removes the temp directories inline code and merged layers were written to. */
  close(): void {
    for (const dir of this.temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
  }

  private async prepare(fn: LocalFunction): Promise<PreparedFunction> {
    const { assembly, onWarning } = this.options;
    const name = `${fn.stack.displayName}/${fn.logicalId}`;
    const runtime = typeof fn.properties.Runtime === 'string' ? fn.properties.Runtime : '';
    if (this.options.container && !lambdaBaseImage(runtime)) throw unsupportedRuntime(runtime, name);
    const launch = this.options.container ? undefined : runtimeLaunch(runtime, name);
    const extension = runtime.startsWith('python') ? '.py' : '.js';
    const code = localCode(fn, assembly.directory, name, extension);
    if (code.temporary) this.temporary.push(code.taskRoot);
    if (code.warning) onWarning(code.warning);
    const layers = localLayers(fn, assembly.directory, name);
    layers.warnings.forEach(onWarning);
    const deployed = await this.readDeployed(fn, name);
    const properties = fn.properties;
    const functionName =
      deployed?.functionName ??
      (typeof properties.FunctionName === 'string' ? properties.FunctionName : name.replace('/', '-'));
    const handler = typeof properties.Handler === 'string' ? properties.Handler : 'index.handler';
    const taskRoot = this.options.container ? '/var/task' : code.taskRoot;
    const started = launch?.start(code.taskRoot, layers.directories);
    const env = {
      ...(this.options.container ? callerAwsSettings(process.env) : passThrough(process.env)),
      ...(deployed ? deployed.variables : templateVariables(properties, name, onWarning)),
      ...(started?.env ?? {}),
      ...(deployed?.credentials
        ? {
            AWS_ACCESS_KEY_ID: deployed.credentials.accessKeyId,
            AWS_SECRET_ACCESS_KEY: deployed.credentials.secretAccessKey,
            AWS_SESSION_TOKEN: deployed.credentials.sessionToken,
          }
        : {}),
      AWS_REGION: this.options.region,
      AWS_DEFAULT_REGION: this.options.region,
      AWS_EXECUTION_ENV: `AWS_Lambda_${runtime}`,
      AWS_LAMBDA_FUNCTION_NAME: functionName,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(
        typeof properties.MemorySize === 'number' ? properties.MemorySize : DEFAULT_MEMORY_MB,
      ),
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${functionName}`,
      AWS_LAMBDA_LOG_STREAM_NAME: 'local',
      LAMBDA_TASK_ROOT: taskRoot,
      LAMBDA_RUNTIME_DIR: taskRoot,
      _HANDLER: handler,
    };
    // Role credentials replace the caller's: a profile would otherwise win over them.
    if (deployed?.credentials) delete (env as Record<string, string>).AWS_PROFILE;
    return {
      name,
      runtime,
      handler,
      taskRoot: code.taskRoot,
      layers: layers.directories,
      ...(started ? { launch: started } : {}),
      env,
      timeoutSeconds: typeof properties.Timeout === 'number' ? properties.Timeout : DEFAULT_TIMEOUT_SECONDS,
      functionArn:
        deployed?.functionArn ??
        `arn:aws:lambda:${this.options.region}:000000000000:function:${functionName}`,
    };
  }

  private async readDeployed(fn: LocalFunction, name: string): Promise<DeployedFunction | undefined> {
    if (!this.options.deployed) return undefined;
    try {
      const deployed = await this.options.deployed(fn);
      this.options.onInfo(
        deployed
          ? `Function ${name}: the environment of the deployed function ${deployed.functionName}${deployed.credentials ? ', running as its role' : ''}.`
          : `Function ${name} is not deployed: the template's environment.`,
      );
      return deployed;
    } catch (error) {
      this.options.onWarning(
        `Function ${name}: the deployed function cannot be read (${error instanceof Error ? error.message : String(error)}), so the template's environment is used. Pass --no-deployed to skip the look-up.`,
      );
      return undefined;
    }
  }

  private async run(fn: PreparedFunction, event: string): Promise<LocalInvokeOutcome> {
    if (!fn.launch) {
      const image = lambdaBaseImage(fn.runtime)!;
      const optDir = fn.layers.length > 0 ? this.mergedLayers(fn.layers) : undefined;
      return invokeInContainer(
        containerCliName(),
        { image, handler: fn.handler, taskRoot: fn.taskRoot, ...(optDir ? { optDir } : {}), env: fn.env },
        event,
        fn.timeoutSeconds * 1000,
        this.options.onLog,
      );
    }
    return runInProcess({
      launch: fn.launch,
      env: fn.env,
      taskRoot: fn.taskRoot,
      event,
      timeoutSeconds: fn.timeoutSeconds,
      functionArn: fn.functionArn,
      onLog: this.options.onLog,
    });
  }

  /** Layers merged as Lambda merges them into /opt (a later layer's file wins), for one mount. */
  private mergedLayers(layers: string[]): string {
    const dir = mkdtempSync(join(tmpdir(), 'cdkd-local-opt-'));
    this.temporary.push(dir);
    for (const layer of layers) cpSync(layer, dir, { recursive: true, force: true });
    return dir;
  }
}

/** How the function's runtime starts here. */
function runtimeLaunch(
  runtime: string,
  name: string,
): { start: (taskRoot: string, layers: string[]) => Launch } {
  if (isNodeRuntime(runtime)) return { start: (taskRoot, layers) => nodeLaunch({ taskRoot, layers }) };
  if (PYTHON_RUNTIME.test(runtime)) {
    const python = pythonInterpreter();
    if (python) return { start: (taskRoot, layers) => pythonLaunch({ taskRoot, layers }, python) };
    throw new CdkdError(
      'LOCAL_RUNTIME_UNSUPPORTED',
      `Function ${name} runs ${runtime}, and this machine has no python3.`,
      { hint: 'Install Python 3 (python3 on the PATH), or run it with --container.' },
    );
  }
  throw unsupportedRuntime(runtime, name);
}

function unsupportedRuntime(runtime: string, name: string): CdkdError {
  return new CdkdError(
    'LOCAL_RUNTIME_UNSUPPORTED',
    `Function ${name} has the runtime ${runtime || '(none: an image function)'}; cdkd local runs Node.js and Python handlers.`,
    { hint: 'Invoke it deployed (the sandbox runs it), or with the CDK CLI / SAM for other runtimes.' },
  );
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

/** In a container only the caller's AWS settings go in (its PATH and HOME are the host's). */
function callerAwsSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[0].startsWith('AWS_'),
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
