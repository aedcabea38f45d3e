import { randomUUID } from 'node:crypto';
import type { StackDeployResult } from './deploy-result.js';
import type { EngineContext } from '../engine-context.js';
import { phaseTimer } from './phase-timer.js';
import type { DeployOptions, StackRequest } from '../stack-request.js';
import { unchangedDeploy } from './unchanged-deploy.js';

/**
 * Deploys one stack. A redeploy that changes nothing answers from reads alone; the locked
 * deploy, and the rollback machinery a failure needs, load only once something changes.
 */
export async function deployStack(
  engine: EngineContext,
  request: StackRequest,
  requested: DeployOptions,
): Promise<StackDeployResult> {
  // Nested stacks are deployed with these options, so their journal segments share the run id.
  const options = { ...requested, runId: requested.runId ?? randomUUID() };
  if (options.dryRun) return (await import('./deploy-stack.js')).dryRunDeploy(engine, request, options);
  const phase = phaseTimer(engine.events, request.stackName);
  // A saved plan is checked under the lock, which the no-op answer does not take.
  const unchanged = options.savedPlan ? undefined : await unchangedDeploy(engine, request, options);
  phase('no-op check');
  if (unchanged) return unchanged;
  return (await import('./deploy-stack.js')).lockedDeploy(engine, request, options, phase);
}
