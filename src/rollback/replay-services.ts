import type { ProviderRouter } from '../provider-calls/router.js';
import type { StackState } from '../stack-state/stack-state.js';
import type { ProviderContext } from '../providers/provider.js';
import type { ResourceRecord } from '../state/documents/state-document.js';
import type { StepOutcome } from './step-outcome.js';

/** What replaying a journal's steps needs; every step reaches AWS through the router and context. */
export interface ReplayServices {
  state: StackState;
  router: ProviderRouter;
  context: ProviderContext;
  sendable(properties: Record<string, unknown>): Promise<Record<string, unknown>>;
  retry<T>(label: string, call: () => Promise<T>): Promise<T>;
  /** Replays a nested stack's segment of the given run. */
  replayNested(logicalId: string, runId: string): Promise<StepOutcome>;
}

/** Deletes a recorded resource through its provider, with the retry schedule. */
export async function deleteResource(
  logicalId: string,
  record: ResourceRecord,
  services: ReplayServices,
): Promise<void> {
  const provider = await services.router.providerFor(record.type, record.provisionedBy);
  await services.retry(logicalId, () =>
    provider.delete(
      { logicalId, type: record.type, physicalId: record.physicalId, properties: record.properties },
      services.context,
    ),
  );
}
