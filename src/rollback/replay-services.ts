import type { ProviderCalls } from '../provider-calls/index.js';
import type { StackState } from '../stack-state/index.js';
import type { StepOutcome } from './step-outcome.js';

/** What replaying a journal's steps needs; every step reaches AWS through the router and context. */
export interface ReplayServices extends ProviderCalls {
  state: StackState;
  sendable(properties: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Replays a nested stack's segment of the given run. */
  replayNested(logicalId: string, runId: string): Promise<StepOutcome>;
}
