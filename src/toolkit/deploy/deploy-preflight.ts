import { isCdkdError } from '../../errors.js';
import type { Engine, DeployOptions, StackDeployResult, StackRequest } from '../../engine/index.js';
import { TemplateErrorCode } from '../../template/errors.js';

/**
 * The refusals a stack's planning raises (the stateful-resource guard above all) come before
 * any stack of the run is touched, not after the stacks ahead of it deployed: every stack is
 * planned first as a dry run against what is recorded now. A stack that imports an export
 * another stack of this run has yet to create is left to the planning its own deploy does,
 * which runs the same guards again on what is recorded then, and so are name lookups: an
 * earlier stack of the run may remove what holds a name. `--require-approval` is asked here
 * too, every stack's before any deploys. Returns the plans made and the stacks asked about.
 */
export async function preflightStacks(
  engine: Engine,
  requests: readonly StackRequest[],
  options: DeployOptions,
): Promise<{ planned: StackDeployResult[]; approvalAsked: Set<string> }> {
  const planned: StackDeployResult[] = [];
  const approvalAsked = new Set<string>();
  for (const request of requests) {
    try {
      planned.push(await engine.deploy(request, { ...options, dryRun: true, preflight: true }));
      approvalAsked.add(request.stateName);
    } catch (error) {
      if (isCdkdError(error) && error.code === TemplateErrorCode.ImportNotFound) continue;
      throw error;
    }
  }
  return { planned, approvalAsked };
}
