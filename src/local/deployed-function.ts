import { AssumeRoleCommand } from '@aws-sdk/client-sts';
import type { AwsClients } from '../aws/index.js';
import type { StateBackend } from '../state/index.js';
import { deployedStackState } from './deployed-state.js';
import type { LocalFunction } from './function-target.js';

/** Credentials the handler gets as AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN. */
export interface RoleCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

/** What the deployed function holds that the template cannot say: its resolved environment and its role. */
export interface DeployedFunction {
  functionName: string;
  functionArn: string;
  variables: Record<string, string>;
  /** The function's role, assumed; absent when it could not be (the caller's credentials are used). */
  credentials?: RoleCredentials;
}

/** Reads a function as deployed, or undefined when its stack (or the function) is not deployed. */
export type DeployedFunctionReader = (fn: LocalFunction) => Promise<DeployedFunction | undefined>;

export interface DeployedReaderInput {
  clients: AwsClients;
  /** The state backend of the caller's account, opened on first use. */
  backend: () => Promise<StateBackend>;
  /** Where an environment-agnostic stack is deployed: the caller's region. */
  region: string;
  warn: (message: string) => void;
}

/**
 * The deployed function's configuration (GetFunctionConfiguration of the physical ID cdkd's
 * state records for it) and its role's credentials (STS AssumeRole of the function's role,
 * as Lambda hands them to the handler). A role that refuses to be assumed by the caller (a
 * Lambda execution role usually trusts only lambda.amazonaws.com) leaves the caller's own
 * credentials in place, with a warning naming what to add to the role's trust policy.
 */
export function deployedFunctionReader(input: DeployedReaderInput): DeployedFunctionReader {
  return async (fn) => {
    const { region, state } = await deployedStackState(input.backend, fn.stack, input.region);
    const record = state?.document.resources[fn.logicalId];
    if (!record) return undefined;
    const { LambdaClient, GetFunctionConfigurationCommand } = await import('@aws-sdk/client-lambda');
    const lambda = await input.clients.client(LambdaClient, region);
    const configuration = await lambda.send(
      new GetFunctionConfigurationCommand({ FunctionName: record.physicalId }),
    );
    const functionName = configuration.FunctionName ?? record.physicalId;
    const deployed: DeployedFunction = {
      functionName,
      functionArn: configuration.FunctionArn ?? functionName,
      variables: { ...(configuration.Environment?.Variables ?? {}) },
    };
    const role = configuration.Role;
    if (!role) return deployed;
    const credentials = await assumeFunctionRole(input.clients, region, role, functionName).catch(
      (error: unknown) => {
        input.warn(
          `Function ${functionName}: its role ${role} cannot be assumed (${error instanceof Error ? error.message : String(error)}); the handler runs with your own credentials. To run it as its role, let your principal assume the role (its trust policy).`,
        );
        return undefined;
      },
    );
    return credentials ? { ...deployed, credentials } : deployed;
  };
}

async function assumeFunctionRole(
  clients: AwsClients,
  region: string,
  roleArn: string,
  functionName: string,
): Promise<RoleCredentials> {
  const sts = await clients.sts(region);
  const answer = await sts.send(
    new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: functionName.slice(0, 64) }),
  );
  const credentials = answer.Credentials;
  if (!credentials?.AccessKeyId || !credentials.SecretAccessKey || !credentials.SessionToken)
    throw new Error('STS answered without credentials');
  return {
    accessKeyId: credentials.AccessKeyId,
    secretAccessKey: credentials.SecretAccessKey,
    sessionToken: credentials.SessionToken,
  };
}
