import type { ProviderContext } from '../providers/index.js';
import type { ResourceRecord } from '../state/index.js';
import type { ProviderRouter } from './router.js';

/** What a call to a stack's providers needs: its router, its context and the retry schedules. */
export interface ProviderCalls {
  router: ProviderRouter;
  context: ProviderContext;
  /** Wraps each provider call in the retry schedules of its error class; `label` names the resource. */
  retry<T>(label: string, call: () => Promise<T>): Promise<T>;
}

/**
 * Deletes a recorded resource through the provider family that made it, with the retry
 * schedule: the one delete of a deploy, a destroy and a journal replay.
 */
export async function deleteRecorded(
  calls: ProviderCalls,
  logicalId: string,
  record: ResourceRecord,
  extra: { removeProtection?: boolean; idempotencyToken?: string | undefined } = {},
): Promise<void> {
  const provider = await calls.router.providerFor(record.type, record.provisionedBy);
  await calls.retry(logicalId, () =>
    provider.delete(
      {
        logicalId,
        type: record.type,
        physicalId: record.physicalId,
        properties: record.properties,
        ...(extra.removeProtection ? { removeProtection: true } : {}),
        ...(extra.idempotencyToken !== undefined && { idempotencyToken: extra.idempotencyToken }),
      },
      calls.context,
    ),
  );
}
