import { CdkdError } from '../../errors.js';
import type { JournalDocument, StateBackend, StackRef } from '../../state/index.js';
import type { EngineContext } from '../engine-context.js';

/**
 * A resource `cdkd destroy --orphan` leaves in AWS (its handler or provider cannot delete
 * it): dropped from state and the journal, named in the output and in `cdkd events`.
 */
export interface OrphanedResource {
  logicalId: string;
  type: string;
  physicalId: string;
  managedBy?: 'sdk' | 'cc-api';
}

/** Why an orphaned resource is left: the output and the event say it. */
export const ORPHANED_REASON =
  'orphaned by cdkd destroy --orphan: left in AWS as it is, no longer tracked by cdkd';

/**
 * Refuses, before any stack is touched, an --orphan id that neither the state nor the
 * rollback journal of any stack being destroyed names.
 */
export async function refuseUnknownOrphans(
  backend: StateBackend,
  refs: readonly StackRef[],
  orphan: ReadonlySet<string>,
): Promise<void> {
  if (orphan.size === 0) return;
  const known = new Set<string>();
  for (const ref of refs) {
    const [state, journal] = await Promise.all([backend.store.read(ref), backend.journals.read(ref)]);
    for (const id of Object.keys(state?.document.resources ?? {})) known.add(id);
    for (const op of (journal?.document.segments ?? []).flatMap((segment) => segment.operations)) {
      known.add(op.logicalId);
    }
  }
  const unknown = [...orphan].filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  const stacks = refs.map((ref) => ref.stackName).join(', ');
  throw new CdkdError(
    'DESTROY_ORPHAN_UNKNOWN',
    `--orphan names ${unknown.join(', ')}, which neither the state nor the rollback journal of ${stacks} records.`,
    {
      hint: `Name a logical id cdkd state show ${refs[0]?.stackName ?? '<stack>'} lists; nothing was destroyed.`,
    },
  );
}

/**
 * The journal without the entries of orphaned ids, so the destroy settles the rest and leaves
 * what those made; and the resources they made.
 */
export function journalWithoutOrphans(
  document: JournalDocument,
  orphan: ReadonlySet<string>,
): { document: JournalDocument; orphaned: OrphanedResource[] } {
  const orphaned: OrphanedResource[] = [];
  const segments = document.segments.map((segment) => ({
    ...segment,
    operations: segment.operations.filter((op) => {
      if (!orphan.has(op.logicalId)) return true;
      // What a failed create made is recorded by this entry alone; any other entry's resource is in state.
      const physicalId = op.made?.physicalId;
      if (op.made && typeof physicalId === 'string' && physicalId !== '') {
        orphaned.push({
          logicalId: op.logicalId,
          type: op.type,
          physicalId,
          managedBy: op.made.provisionedBy,
        });
      }
      return false;
    }),
  }));
  return { document: { ...document, segments }, orphaned };
}

/** Records each orphaned resource as a deployment event (`cdkd events`), as CloudFormation's DELETE_SKIPPED. */
export async function recordOrphaned(
  engine: EngineContext,
  ref: StackRef,
  runId: string,
  orphaned: readonly OrphanedResource[],
): Promise<void> {
  if (orphaned.length === 0) return;
  const log = engine.eventLog(ref, runId);
  for (const resource of orphaned) {
    log.record({
      status: 'DELETE_SKIPPED',
      logicalId: resource.logicalId,
      resourceType: resource.type,
      survivorId: resource.physicalId,
      ...(resource.managedBy ? { managedBy: resource.managedBy } : {}),
      reason: ORPHANED_REASON,
    });
  }
  await log.flush();
}
