import { randomUUID } from 'node:crypto';
import type { PlannedOperation } from '../../plan/index.js';
import type { ResourceRecord } from '../../state/index.js';
import { keepsResource } from '../../template/index.js';
import { createdName } from './created-name.js';
import { storeMade } from './made-outcome.js';
import {
  idempotentCreateError,
  isOldResource,
  lookUpName,
  recordedNameCheck,
  replacementOrder,
  type NameCheck,
} from '../planning/index.js';
import type { PreparedCreate, ReplaceHost } from './executor-services.js';
import { recreateOrder } from '../planning/index.js';
import { policies, type OperationDraft } from './observer.js';

/**
 * Create-first: the old resource is kept as a pending delete until the cleanup phase removes
 * it. When the old resource holds the new one's name, --replace deletes it first instead.
 * A re-create (`--recreate-via-*`, or `recreate` for the update-unsupported fallback) deletes
 * it first unless recreate-order.ts says otherwise.
 */
export async function replaceResource(
  host: ReplaceHost,
  op: PlannedOperation,
  updateReplacePolicy: string | undefined,
  release: () => void = () => {},
  recreate = false,
): Promise<void> {
  const old = host.services.state.record(op.logicalId);
  if (!old) return host.create(op, release);
  const prepared = await host.prepareCreate(op);
  const idempotencyToken = randomUUID();
  const deleteFirst =
    (recreate || op.recreateVia !== undefined) &&
    recreateOrder({
      type: op.type,
      desired: prepared.stored,
      recorded: old.properties,
      ...(updateReplacePolicy !== undefined && { updateReplacePolicy }),
      ...(op.importedBy !== undefined && { importedElsewhere: true }),
    }) === 'delete-first';
  const check: NameCheck = deleteFirst
    ? { kind: 'not-looked-up' }
    : await lookUpName(
        prepared.provider,
        host.request(op, prepared, idempotencyToken),
        host.services.context,
        host.services.retry,
      ).then((looked) =>
        looked.kind === 'not-looked-up' ? recordedNameCheck(op.type, prepared.sent, old) : looked,
      );
  const order = deleteFirst
    ? 'delete-first'
    : replacementOrder({
        logicalId: op.logicalId,
        type: op.type,
        properties: prepared.sent,
        old,
        check,
        ...(updateReplacePolicy !== undefined && { updateReplacePolicy }),
        replace: host.services.replace === true,
      });
  const { stored } = prepared;
  const draft: OperationDraft = {
    logicalId: op.logicalId,
    action: 'replace',
    type: op.type,
    ...(old.type !== op.type ? { previousType: old.type } : {}),
    before: old,
    previousPhysicalId: old.physicalId,
    attempted: stored,
    verdict: { replacement: true, order },
    idempotencyToken,
    ...createdName(prepared.provider, host.request(op, prepared, idempotencyToken), host.services.context),
    createdVia: prepared.provisionedBy,
    ...policies(op),
  };
  if (order === 'delete-first') return replaceDeleteFirst(host, op, old, prepared, draft, release);
  const retainOld = keepsResource(updateReplacePolicy);
  await host.journaled(draft, async (onAccepted) => {
    const record = await host.makeResource(
      op,
      prepared,
      idempotencyToken,
      check.kind === 'free',
      release,
      onAccepted,
    );
    if (isOldResource(old, record)) return keepOldResource(host, op, old, record);
    const state = host.services.state;
    await storeMade(record, stored, {
      save: () => state.replaceRecord(op.logicalId, record, retainOld ? undefined : old),
      // State names the old resource again; the journal's made entry names the new one.
      undo: () => {
        void state.setRecord(op.logicalId, old).catch(() => undefined);
        void state.removePendingDelete(old.physicalId, old.type).catch(() => undefined);
      },
    });
    if (retainOld) {
      host.services.events({
        kind: 'warning',
        stack: host.services.state.ref.stackName,
        message: `${op.logicalId}: the old ${old.type} ${old.physicalId} is kept in AWS (UpdateReplacePolicy ${updateReplacePolicy}) and no longer tracked.`,
      });
    }
    return {
      physicalId: record.physicalId,
      after: record,
      verdict: { replacement: true, order: 'create-first', oldRetained: retainOld },
    };
  });
}

/**
 * The create handed back the resource being replaced: it is recorded as updated, never
 * scheduled for deletion. Between two custom types that is refused instead (spec 002).
 */
async function keepOldResource(
  host: ReplaceHost,
  op: PlannedOperation,
  old: ResourceRecord,
  record: ResourceRecord,
): Promise<Partial<OperationDraft>> {
  if (old.type !== op.type) throw idempotentCreateError(op.logicalId, op.type, record.physicalId);
  // A plain save: were it to fail, the record still names this resource, which is the old one.
  await host.services.state.setRecord(op.logicalId, record);
  host.services.events({
    kind: 'warning',
    stack: host.services.state.ref.stackName,
    message: `${op.logicalId}: the create returned ${record.physicalId}, the resource being replaced; it is kept and recorded as updated, not deleted.`,
  });
  return { physicalId: record.physicalId, after: record, verdict: { replacement: false } };
}

/**
 * --replace on a name the old resource holds, or a re-create: delete it, record that in state
 * and the journal, then create. A stop in between leaves the journal saying the old one is gone.
 * The children AWS deleted with it are re-created after it (spec 002, lost-children.ts).
 */
async function replaceDeleteFirst(
  host: ReplaceHost,
  op: PlannedOperation,
  old: ResourceRecord,
  prepared: PreparedCreate,
  draft: OperationDraft,
  release: () => void,
): Promise<void> {
  const state = host.services.state;
  await host.journaled(draft, async (onAccepted, learned) => {
    await host.deleteRecorded(op.logicalId, old);
    await host.parentDeleted(op.logicalId, old);
    await learned({ oldDeleted: true });
    const record = await host.makeResource(op, prepared, draft.idempotencyToken!, true, release, onAccepted);
    await storeMade(record, prepared.stored, {
      save: () => state.setRecord(op.logicalId, record),
      undo: () => void state.removeRecord(op.logicalId).catch(() => undefined),
    });
    return {
      physicalId: record.physicalId,
      after: record,
      verdict: { replacement: true, order: 'delete-first', oldDeleted: true },
    };
  });
}
