import { randomUUID } from 'node:crypto';
import type { StackDeployResult } from './deploy-result.js';
import type { EngineContext } from '../engine-context.js';
import { phaseTimer } from './phase-timer.js';
import type { DeployOptions, StackRequest } from '../stack-request.js';
import { unchangedDeploy } from './unchanged-deploy.js';

/**
 * Deploys one stack. A redeploy that changes nothing answers from reads alone; the locked
 * deploy, and the rollback machinery a failure needs, load only once something changes.
 * `--require-approval` is put to a dry run of the stack before its lock is taken, unless the
 * run's preflight already put it (`approvalAsked`); a nested stack is its parent's to review.
 */
export async function deployStack(
  engine: EngineContext,
  request: StackRequest,
  requested: DeployOptions,
): Promise<StackDeployResult> {
  // Nested stacks are deployed with these options, so their journal segments share the run id.
  const options = { ...requested, runId: requested.runId ?? randomUUID() };
  const level = request.isNested ? undefined : options.requireApproval;
  if (options.dryRun) {
    const { dryRunDeploy } = await import('./deploy-stack.js');
    const result = await dryRunDeploy(engine, request, options);
    if (options.preflight && level)
      await (await import('./approval.js')).approveChanges(engine, result, level);
    return result;
  }
  const phase = phaseTimer(engine.events, request.stackName);
  // A saved plan is checked under the lock, which the no-op answer does not take.
  const unchanged = options.savedPlan ? undefined : await unchangedDeploy(engine, request, options);
  phase('no-op check');
  if (unchanged) return unchanged;
  const { dryRunDeploy, lockedDeploy } = await import('./deploy-stack.js');
  if (level && level !== 'never' && !options.approvalAsked?.has(request.stateName)) {
    const review = await dryRunDeploy(engine, request, { ...options, dryRun: true, preflight: true });
    await (await import('./approval.js')).approveChanges(engine, review, level);
    phase('approval');
  }
  return lockedDeploy(engine, request, options, phase);
}
