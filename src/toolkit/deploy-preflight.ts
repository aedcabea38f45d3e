import { isCdkdError } from '../errors.js';
import type { Engine, DeployOptions, StackRequest } from '../engine/index.js';
import { TemplateErrorCode } from '../template/errors.js';

/**
 * The refusals a stack's planning raises (the stateful-resource guard above all) come before
 * any stack of the run is touched, not after the stacks ahead of it deployed: every stack is
 * planned first as a dry run against what is recorded now. A stack that imports an export
 * another stack of this run has yet to create is left to the planning its own deploy does,
 * which runs the same guards again on what is recorded then, and so are name lookups: an
 * earlier stack of the run may remove what holds a name. `--require-approval` is asked here
 * too, every stack's before any deploys; the stacks it was asked for are returned.
 */
export async function preflightStacks(
  engine: Engine,
  requests: readonly StackRequest[],
  options: DeployOptions,
): Promise<Set<string>> {
  const asked = new Set<string>();
  for (const request of requests) {
    try {
      await engine.deploy(request, { ...options, dryRun: true, preflight: true });
      asked.add(request.stateName);
    } catch (error) {
      if (isCdkdError(error) && error.code === TemplateErrorCode.ImportNotFound) continue;
      throw error;
    }
  }
  return asked;
}
