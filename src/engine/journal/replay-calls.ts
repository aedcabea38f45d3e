import type { ReplayServices } from '../../rollback/index.js';
import type { StackState } from '../../stack-state/index.js';
import { stackProviderContext, type EngineContext, type StackIdentity } from '../engine-context.js';
import { refusingRegionlessSecrets } from '../planning/index.js';
import type { DeployOptions } from '../stack-request.js';
import { customResourceSite } from './custom-resource-site.js';

/** A nested stack deleted by a rollback is destroyed with this many resources at once. */
const DEFAULT_REPLAY_CONCURRENCY = 8;

export interface ReplayCallsInput {
  stack: StackIdentity;
  state: StackState;
  options?: DeployOptions;
  /** A direct rollback of a nested stack: secret references must name their region. */
  direct?: boolean;
  signal?: AbortSignal | undefined;
}

/**
 * How a replay reaches AWS for one stack: its router, provider context and retries. A nested
 * stack's replay is the caller's to add (rollback-stack.ts), so reading the cloud needs no rollback.
 */
export function replayCalls(
  engine: EngineContext,
  input: ReplayCallsInput,
): Omit<ReplayServices, 'replayNested'> {
  const { stack, state } = input;
  return {
    state,
    // The options reach nested stacks deleted through the router.
    router: engine.routerFor(stack, input.options ?? { concurrency: DEFAULT_REPLAY_CONCURRENCY }),
    context: {
      ...stackProviderContext(engine, stack),
      ...(input.options?.prefixUserSuppliedNames ? { prefixUserSuppliedNames: true } : {}),
      customResources: customResourceSite(engine, stack, state, input.signal),
    },
    sendable: input.direct
      ? refusingRegionlessSecrets(engine.sendable(stack.region))
      : engine.sendable(stack.region),
    retry: engine.retry,
  };
}
