import { refuseProtectedStacks, refuseUnknownOrphans } from '../../engine/destroy/index.js';
import { confirmDestroy } from '../destroy/destroy-question.js';
import { openEngine } from '../session/provider-wiring.js';
import type { DestroyedStack } from '../destroy/destroy-app.js';
import type { Session } from '../session/session.js';
import type { ToolkitIo } from '../io.js';
import { stateStackIdentity } from './state-stack.js';

export interface StateDestroyInput extends ToolkitIo {
  session: Session;
  stackName: string;
  region?: string;
  concurrency: number;
  /** Aborted on an interrupt: resources in flight finish, nothing new starts. */
  signal?: AbortSignal;
  /** --orphan: logical ids to leave in AWS and stop tracking instead of deleting. */
  orphan?: readonly string[];
}

/**
 * `cdkd state destroy <stack>`: deletes what the stack's state records, for a stack whose
 * app is gone. The same engine function as `cdkd destroy`: DeletionPolicy, the journal,
 * dependents first, and the fail-fast lock.
 */
export async function destroyFromState(input: StateDestroyInput): Promise<DestroyedStack> {
  const stack = await stateStackIdentity(input.session, input.stackName, input.region);
  const orphan = new Set(input.orphan ?? []);
  const backend = await input.session.stateBackend();
  const refs = [{ stackName: stack.stateName, region: stack.region }];
  await refuseProtectedStacks(backend, refs);
  await refuseUnknownOrphans(backend, refs, orphan);
  await confirmDestroy(input, { stacks: [input.stackName], fromState: true, orphan: [...orphan] });
  const engine = await openEngine(input.session, {
    io: input.io,
    command: input.command,
    regions: [stack.region],
  });
  const result = await engine.destroy(stack, {
    concurrency: input.concurrency,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(orphan.size > 0 ? { orphan } : {}),
  });
  return { stackName: stack.stackName, ...result };
}
