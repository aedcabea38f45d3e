import {
  GetFunctionConfigurationCommand,
  type FunctionConfiguration,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import type { Clock } from '../clock.js';
import { pollUntil } from '../poll-until.js';

/** As long as CloudFormation's own stabilization for a function. */
export const WAIT_DEADLINE_MS = 10 * 60_000;

/** Lambda refuses most calls until a new function is Active and an update has finished. */
export type Readiness = 'active' | 'updated';

/**
 * Polls GetFunctionConfiguration until the function is Active (after CreateFunction) or its
 * LastUpdateStatus is Successful (after an update). A Failed state is an error carrying
 * Lambda's reason.
 */
export function waitForFunction(
  client: LambdaClient,
  functionName: string,
  readiness: Readiness,
  clock: Clock,
  signal?: AbortSignal,
): Promise<FunctionConfiguration> {
  const target = readiness === 'active' ? 'Active' : 'Successful';
  return pollUntil(
    async () => {
      const config = await client.send(new GetFunctionConfigurationCommand({ FunctionName: functionName }), {
        abortSignal: signal,
      });
      const verdict = readinessOf(config, readiness);
      if (verdict === 'failed') {
        const reason = readiness === 'active' ? config.StateReason : config.LastUpdateStatusReason;
        throw new Error(
          `Lambda function ${functionName} ${readiness === 'active' ? 'failed to become Active' : 'update failed'}: ${reason ?? 'no reason given'}. Fix the cause and deploy again.`,
        );
      }
      return verdict === 'ready' ? config : 'waiting';
    },
    {
      what: `Lambda function ${functionName} becoming ${target}`,
      deadlineMs: WAIT_DEADLINE_MS,
      console: 'Lambda',
      clock,
      signal,
    },
  );
}

/** Whether a configuration shows the function ready, still settling, or failed. */
export function readinessOf(
  config: FunctionConfiguration,
  readiness: Readiness,
): 'ready' | 'waiting' | 'failed' {
  if (config.State === 'Failed' || (readiness === 'updated' && config.LastUpdateStatus === 'Failed'))
    return 'failed';
  if (config.State !== 'Active') return 'waiting';
  if (readiness === 'updated' && config.LastUpdateStatus !== 'Successful') return 'waiting';
  return 'ready';
}
