import type { JournalDocument, JournalOperation } from '../state/documents/journal-document.js';
import type { StateDocument } from '../state/documents/state-document.js';
import { isAddressable } from '../rollback/decisions/addressable.js';
import { needsNoCreationIdentity } from '../rollback/decisions/identifiers.js';
import { replayStep, type ReplayServices } from '../rollback/replay-step.js';

export interface SettledJournal {
  /** Warnings naming resources a person must look at (exit 2 unless --allow-unaddressed). */
  warnings: string[];
  /** Entries kept because the deploy could not act on them. */
  kept: JournalOperation[];
}

const RETAINING = new Set(['Retain', 'RetainExceptOnCreate', 'Snapshot']);

/**
 * Spec 003, "The journal's lifetime", for a successful deploy or a destroy:
 * before the journal goes, each resource a failed create made that only the
 * journal records is deleted per its DeletionPolicy — unless a state record now
 * holds it (tracked, dropped silently) or something else may own it (warned
 * about, left in AWS). Entries the command could not act on are returned to keep.
 */
export async function settleMadeResources(
  journal: JournalDocument,
  state: StateDocument,
  services: ReplayServices,
  excludeRunId?: string,
): Promise<SettledJournal> {
  const warnings: string[] = [];
  const kept: JournalOperation[] = [];
  for (const segment of journal.segments) {
    if (segment.runId === excludeRunId) continue;
    for (const op of segment.operations) {
      if (!op.made) continue;
      const verdict = judge(op, state);
      if (verdict.kind === 'tracked') continue;
      if (verdict.kind === 'warn') {
        warnings.push(verdict.reason);
        continue;
      }
      const outcome = await replayStep(
        {
          kind: 'delete-made',
          logicalId: op.logicalId,
          type: op.type,
          physicalId: verdict.physicalId,
          provisionedBy: op.made.provisionedBy,
          ...(op.made.creationIdentity ? { creationIdentity: op.made.creationIdentity } : {}),
          properties: op.made.properties,
          retain: RETAINING.has(op.deletionPolicy ?? ''),
          needsIdentityProof: !needsNoCreationIdentity(op.type),
        },
        services,
      );
      if (outcome.status === 'failed') {
        kept.push(op);
        warnings.push(
          `${op.logicalId}: could not delete ${verdict.physicalId}, which a failed create made: ${outcome.message}`,
        );
      } else if (outcome.warn) {
        warnings.push(`${op.logicalId}: ${outcome.message}`);
      }
    }
  }
  return { warnings, kept };
}

type Judgement =
  { kind: 'tracked' } | { kind: 'warn'; reason: string } | { kind: 'delete'; physicalId: string };

function judge(op: JournalOperation, state: StateDocument): Judgement {
  const physicalId = op.made!.physicalId;
  if (!isAddressable(physicalId)) {
    return {
      kind: 'warn',
      reason: `${op.logicalId}: a failed create made a resource the journal cannot name; check it by hand`,
    };
  }
  const holder = Object.values(state.resources).some(
    (record) => record.type === op.type && record.physicalId === physicalId,
  );
  if (holder) return { kind: 'tracked' };
  if (state.resources[op.logicalId]) {
    return {
      kind: 'warn',
      reason: `${op.logicalId}: ${physicalId}, which an earlier failed create made, is not the resource state now records under this id; not deleted, delete it if it is not in use`,
    };
  }
  if (!needsNoCreationIdentity(op.type) && !op.made!.creationIdentity) {
    return {
      kind: 'warn',
      reason: `${op.logicalId}: ${physicalId}, which an earlier failed create made, has no recorded creation identity to prove it is still that resource; not deleted, delete it if it is not in use`,
    };
  }
  return { kind: 'delete', physicalId };
}
