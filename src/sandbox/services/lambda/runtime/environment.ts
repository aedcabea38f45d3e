import { roleSessions, type SessionCredentials } from '../../../ports/index.js';
import type { SandboxContext } from '../../../service-module.js';
import type { FunctionConfig } from '../model.js';
import { logGroupName, newLogStreamName } from './function-logs.js';
import type { InvokeTarget } from './invocation.js';

/** Credentials for a function whose role the sandbox does not hold: they act in the sandbox's account. */
const UNKNOWN_ROLE_CREDENTIALS: SessionCredentials = {
  accessKeyId: 'ASIASANDBOXLAMBDA000',
  secretAccessKey: 'sandbox-lambda-secret',
  sessionToken: 'sandbox-lambda-session',
};

/** What a new execution environment of a function version (a zip function's process, an image function's container) gets. */
export interface ExecutionEnvironment {
  /** Its variables (Lambda's reserved ones and the role's credentials included). */
  environment: Record<string, string>;
  logGroup: string;
  /** A new stream of its own, in `logGroup`. */
  logStream: string;
}

/**
 * The variables of a new execution environment of `target`, with the log group and the new
 * log stream they name; the credentials are a session of the function's execution role when
 * the sandbox holds that role. `taskRoot`: where its code is, as LAMBDA_TASK_ROOT.
 */
export function executionEnvironment(
  context: SandboxContext,
  target: Pick<InvokeTarget, 'record' | 'config' | 'version'>,
  taskRoot: string,
): ExecutionEnvironment {
  const { record, config, version } = target;
  const logGroup = logGroupName(record.name, config.logging);
  const logStream = newLogStreamName(version);
  const credentials = roleSessions.of(context)?.open(config.role, record.name, record.region);
  const environment = functionEnvironment({
    config,
    functionName: record.name,
    version,
    region: record.region,
    logGroup,
    logStream,
    taskRoot,
    endpoint: context.endpoint ?? '',
    ...(credentials ? { credentials } : {}),
  });
  return { environment, logGroup, logStream };
}

interface EnvironmentInput {
  config: FunctionConfig;
  functionName: string;
  version: string;
  region: string;
  logGroup: string;
  logStream: string;
  taskRoot: string;
  /** The sandbox's own URL, the function's AWS endpoint. */
  endpoint: string;
  /** A session of the function's execution role, when the sandbox holds that role. */
  credentials?: SessionCredentials;
}

/**
 * A function's environment: its `Environment.Variables`, then Lambda's reserved variables
 * (which the function cannot override), with the sandbox as every SDK's endpoint and the
 * execution role's session as its credentials, so its calls act as that role in the role's
 * account (`--enforce-iam` checks them). Nothing of the sandbox's own environment leaks in
 * except PATH.
 */
function functionEnvironment(input: EnvironmentInput): Record<string, string> {
  const { config } = input;
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    ...config.environment,
    AWS_REGION: input.region,
    AWS_DEFAULT_REGION: input.region,
    AWS_EXECUTION_ENV: `AWS_Lambda_${config.runtime ?? 'unknown'}`,
    AWS_LAMBDA_FUNCTION_NAME: input.functionName,
    AWS_LAMBDA_FUNCTION_VERSION: input.version,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(config.memorySize),
    AWS_LAMBDA_LOG_GROUP_NAME: input.logGroup,
    AWS_LAMBDA_LOG_STREAM_NAME: input.logStream,
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    LAMBDA_TASK_ROOT: input.taskRoot,
    LAMBDA_RUNTIME_DIR: input.taskRoot,
    _HANDLER: config.handler ?? '',
    ...credentialVariables(input.credentials ?? UNKNOWN_ROLE_CREDENTIALS),
    AWS_ENDPOINT_URL: input.endpoint,
    // The sandbox runs every nodejsN.x on its own Node.js; the SDK's notice about it is noise.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

function credentialVariables(credentials: SessionCredentials): Record<string, string> {
  return {
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: credentials.sessionToken,
  };
}
