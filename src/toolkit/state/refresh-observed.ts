import type { RefreshResult } from '../../engine/index.js';
import { stackNotInState } from '../../state/state-bucket-errors.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import { withoutProgress, type ToolkitIo } from '../io.js';
import { stateStackIdentity } from './state-stack.js';

/** `cdkd state refresh-observed <stack>`: state alone, no synthesis. */
export async function refreshObservedState(
  input: ToolkitIo & {
    session: Session;
    stackName: string;
    region?: string;
    concurrency: number;
    /** The first SIGINT/SIGTERM: the reads in flight end, nothing is saved. */
    signal?: AbortSignal;
  },
): Promise<RefreshResult> {
  const stack = await stateStackIdentity(input.session, input.stackName, input.region);
  const engine = await openEngine(input.session, {
    io: withoutProgress(input.io),
    command: input.command,
    regions: [stack.region],
  });
  const result = await engine.refreshObserved(stack, {
    concurrency: input.concurrency,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  if (!result.found) {
    throw stackNotInState(stack);
  }
  return result;
}
