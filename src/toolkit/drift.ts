import type { DriftMode, DriftResult } from '../engine/drift-stack.js';
import { stackNotInState } from '../state/state-bucket-errors.js';
import { openEngine } from './provider-wiring.js';
import type { Session } from './session.js';
import { stateStackIdentity } from './state-stack.js';

/** `cdkd drift <stack>`: from state alone, no synthesis. */
export async function driftFromState(input: {
  session: Session;
  stackName: string;
  region?: string;
  mode: DriftMode;
  concurrency: number;
  onWarning(message: string): void;
}): Promise<DriftResult & { stackName: string }> {
  const stack = await stateStackIdentity(input.session, input.stackName, input.region);
  const engine = await openEngine(input.session, {
    events: () => undefined,
    onWarning: input.onWarning,
    regions: [stack.region],
  });
  const result = await engine.drift(stack, { mode: input.mode, concurrency: input.concurrency });
  if (!result.found) throw stackNotInState(stack);
  return { stackName: stack.stackName, ...result };
}
