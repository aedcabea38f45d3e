import { messageOf } from '../../errors.js';
import { summarizePlan, type Plan } from '../../plan/index.js';
import type { StateDocument } from '../../state/index.js';
import type { EngineContext } from '../engine-context.js';
import type { StackRequest } from '../stack-request.js';

/**
 * After a successful deploy that changed the stack, under its lock: the stack's next generation,
 * whole (template, parameters as state keeps them, tags, the assets the template reads, what
 * changed), for `cdkd undo` and `cdkd gc`. A nested stack is its parent's generation. The
 * deploy is done whatever happens here: a failed write is a warning (undo then lacks this one).
 */
export async function recordDeployedGeneration(
  engine: EngineContext,
  request: StackRequest,
  document: StateDocument,
  plan: Plan,
): Promise<void> {
  if (request.isNested || document.template === undefined) return;
  const { create, update, replace, delete: deleted } = summarizePlan(plan);
  const ref = { stackName: request.stateName, region: request.region };
  await engine.backend.generations
    .record(ref, {
      source: request.undoneTo === undefined ? 'deploy' : 'undo',
      ...(request.undoneTo !== undefined && { undoneTo: request.undoneTo }),
      template: document.template,
      parameters: document.parameters,
      tags: document.tags,
      ...(document.terminationProtection && { terminationProtection: true as const }),
      assets: [...(request.assets ?? [])],
      images: [],
      changes: { create, update, replace, delete: deleted },
    })
    .catch((error: unknown) =>
      engine.events({
        kind: 'warning',
        stack: request.stackName,
        message: `The deploy succeeded, but its generation could not be recorded at ${engine.backend.generations.location(ref)} (${messageOf(error)}): cdkd undo cannot return to it.`,
      }),
    );
}
