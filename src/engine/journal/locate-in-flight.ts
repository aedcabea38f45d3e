import type { CreationIdentity } from '../../providers/index.js';
import {
  makesInFlight,
  reconcileInFlight,
  type Located,
  type ReconcileOptions,
} from '../../rollback/index.js';
import type { ReplayServices } from '../../rollback/index.js';
import type { JournalOperation, JournalSegment, StateDocument } from '../../state/index.js';
import { lookUpName } from '../planning/index.js';
import { routeLoaded } from '../../provider-calls/index.js';

/**
 * Settles what killed runs left in flight in `segments` (reconcile.ts), asking the provider
 * that made each create what it made: a rollback, a destroy and a successful deploy all do
 * this before they act on a journal, so no in-flight create is passed over.
 */
export async function reconcileSegments(
  segments: readonly JournalSegment[],
  state: StateDocument,
  services: ReplayServices,
  options: ReconcileOptions = {},
): Promise<void> {
  for (const segment of segments) {
    await reconcileInFlight(segment, state, (op) => locateInFlight(op, segment, services), options);
  }
}

/**
 * What an in-flight create made, as its provider proves it (a generated name derived from the
 * create's token, the token tag its create call wrote, Cloud Control's request, a custom
 * resource's answer), under the name-prefix setting its run journaled. A provider that cannot
 * answer, or a read that fails, leaves it `unknown`: the entry then stays in the journal.
 */
export async function locateInFlight(
  op: JournalOperation,
  segment: JournalSegment,
  services: ReplayServices,
): Promise<Located> {
  if (!op.idempotencyToken) return 'unknown';
  const context = {
    ...services.context,
    prefixUserSuppliedNames:
      segment.flags.prefixUserSuppliedNames ?? services.context.prefixUserSuppliedNames,
  };
  try {
    // Only Cloud Control answers with an accepted request; an older journal may not name the route.
    const via = op.createdVia ?? (op.acceptedRequest !== undefined ? 'cc-api' : undefined);
    const { provider, provisionedBy } = via
      ? { provider: await services.router.providerFor(op.type, via), provisionedBy: via }
      : await routeLoaded(services.router, { type: op.type, properties: op.attempted ?? {} });
    if (!provider.locate && !provider.nameHolder) return 'unknown';
    const properties = await services.sendable(op.attempted ?? {});
    const request = {
      logicalId: op.logicalId,
      type: op.type,
      properties,
      idempotencyToken: op.idempotencyToken,
      ...(op.acceptedRequest !== undefined && { acceptedRequest: op.acceptedRequest }),
      journaledAt: segment.startedAt,
    };
    const answer = provider.locate ? await provider.locate(request, context) : 'unknown';
    if (typeof answer !== 'string') {
      const live = await provider
        .read({ logicalId: op.logicalId, type: op.type, physicalId: answer.physicalId, properties }, context)
        .catch(() => undefined);
      const creationIdentity: CreationIdentity | undefined = live?.creationIdentity;
      return { physicalId: answer.physicalId, provisionedBy, ...(creationIdentity && { creationIdentity }) };
    }
    if (answer !== 'unknown') return answer;
    // An explicit name nothing holds proves the create made nothing; a held one proves nothing.
    const check = await lookUpName(provider, request, context, services.retry);
    return check.kind === 'free' ? 'none' : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The creates that reconciling left in flight, each as a line naming it: their resources may
 * exist and these entries are their only record, so a command keeps them in the journal.
 */
export function unsettledInFlight(
  segments: readonly JournalSegment[],
): Array<{ op: JournalOperation; line: string }> {
  return segments.flatMap((segment) =>
    segment.operations.filter(makesInFlight).map((op) => ({
      op,
      line: `${op.logicalId} (${op.type}) was in flight when an earlier run stopped, and cdkd cannot tell whether it made its resource${op.name !== undefined ? ` (under the name ${op.name})` : ''}`,
    })),
  );
}
