import {
  GetFunctionConfigurationCommand,
  type FunctionConfiguration,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import type { Clock } from '../clock.js';

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;
/** As long as CloudFormation's own stabilization for a function. */
export const WAIT_DEADLINE_MS = 10 * 60_000;

/** Lambda refuses most calls until a new function is Active and an update has finished. */
export type Readiness = 'active' | 'updated';

/**
 * Polls GetFunctionConfiguration until the function is Active (after CreateFunction) or its
 * LastUpdateStatus is Successful (after an update), on a 1.5x backoff capped at 5 s.
 * A Failed state is an error carrying Lambda's reason.
 */
export async function waitForFunction(
  client: LambdaClient,
  functionName: string,
  readiness: Readiness,
  clock: Clock,
  signal?: AbortSignal,
): Promise<FunctionConfiguration> {
  const deadline = clock.now() + WAIT_DEADLINE_MS;
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 1.5, MAX_DELAY_MS)) {
    const config = await client.send(new GetFunctionConfigurationCommand({ FunctionName: functionName }), {
      abortSignal: signal,
    });
    const verdict = readinessOf(config, readiness);
    if (verdict === 'ready') return config;
    if (verdict === 'failed') {
      const reason = readiness === 'active' ? config.StateReason : config.LastUpdateStatusReason;
      throw new Error(
        `Lambda function ${functionName} ${readiness === 'active' ? 'failed to become Active' : 'update failed'}: ${reason ?? 'no reason given'}. Fix the cause and deploy again.`,
      );
    }
    if (clock.now() + delay > deadline) {
      throw new Error(
        `Lambda function ${functionName} did not become ${readiness === 'active' ? 'Active' : 'Successful'} within ${WAIT_DEADLINE_MS / 60_000} minutes; check it in the Lambda console and deploy again.`,
      );
    }
    await clock.sleep(delay, signal);
  }
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
