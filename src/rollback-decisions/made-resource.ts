import type { ProviderKind } from '../providers/index.js';
import { keepsOnRollbackOfCreate } from '../template/index.js';
import { isAddressable } from './addressable.js';
import { needsNoCreationIdentity, sameId } from '../resource-types/index.js';
import { comparesLiveIdentity, type LiveComparison } from './live-comparison.js';

/** The paths that act on a failed CREATE's made resource (spec 000, "Failed CREATEs that made their resource"). */
export type MadePath = 'automatic-rollback' | 'no-rollback' | 'rollback' | 'destroy' | 'deploy-success';

/** Exactly what the made-resource rules read; the caller gathers it, nothing here does I/O. */
export interface MadeResourceFacts {
  path: MadePath;
  entry: {
    logicalId: string;
    type: string;
    /** As journaled: may be anything in a torn journal. */
    physicalId: unknown;
    /** The template's DeletionPolicy as journaled. */
    deletionPolicy?: string;
    /** The failed deploy recorded a creation identity for the resource. */
    hasCreationIdentity: boolean;
    provisionedBy?: ProviderKind;
  };
  /** The stack's state records as this path leaves them (after the deploy, on deploy-success); `state.resources` fits. */
  records: Readonly<Record<string, { type: string; physicalId: string }>>;
  /** For a replacement's new resource: the physical id of the resource it was replacing (the failed UPDATE's `before`). */
  replacedPhysicalId?: string;
  /** A newer segment holds an op of its type naming its physicalId/previousPhysicalId, or a completed CREATE of its type. */
  newerSegmentNamesIt?: boolean;
  /** A later segment's removal superseded its logical id. */
  supersededByLaterRemoval?: boolean;
  /** A rollback-orphan record holds its logical or physical id. */
  orphanRecordHoldsIt?: boolean;
  /** A resource or rollback-orphan record of another stack under the same state prefix holds its physical id. */
  otherStackHoldsIt?: boolean;
  /** deploy-success: the deploy completed an operation under the logical id. */
  deployCompletedOpUnderLogicalId?: boolean;
  /** The entry is one a successful fix-forward deploy kept (a delete that failed, a bucket it never empties). */
  keptByFixForward?: boolean;
  /** deploy-success: a state record under the prefix could not be read, so nothing proves no other stack owns it. */
  unreadableUnderPrefix?: string;
  /** The live comparison, where one was made (see `comparesLiveIdentity`). */
  liveComparison?: LiveComparison;
}

export type MadeDecision =
  /** `retain`: DeletionPolicy Retain/Snapshot keeps it in AWS, with no record. */
  | { kind: 'delete'; retain: boolean; needsIdentityProof: boolean }
  /** Nothing deleted; the entry stays in the journal (`warn`: exit 2). */
  | { kind: 'keep-entry'; reason: string; warn: boolean }
  /** A record holds that very resource: drop the entry silently (`info`, when present, is logged at info). */
  | { kind: 'tracked'; info?: string }
  /** Not deleted: a warning naming the physical id, exit 2. */
  | { kind: 'warn'; reason: string }
  | { kind: 'skip-unaddressable'; reason: string };

const MANUAL = 'not deleted, it may still exist untracked and need manual attention';

export function decideMadeResource(facts: MadeResourceFacts): MadeDecision {
  const { entry } = facts;
  if (facts.path === 'no-rollback') {
    return {
      kind: 'keep-entry',
      reason: `made ${show(entry.physicalId)} before it failed; nothing is deleted under --no-rollback, the journal keeps the entry for a later cdkd rollback`,
      warn: false,
    };
  }
  if (!isAddressable(entry.physicalId)) {
    // The journal entry was this resource's only record: name it for manual attention.
    return {
      kind: 'skip-unaddressable',
      reason: `made a resource before it failed, but the journal records no usable physical id for it (${show(entry.physicalId)}); it was the only record of that resource, so find it by hand and delete it if it exists`,
    };
  }
  const id = entry.physicalId;
  const type = entry.type;

  // Something later may own it: skipped with a warning before state is consulted.
  if (facts.newerSegmentNamesIt)
    return warn(`made ${id} before it failed, but a newer deploy names it; ${MANUAL}`);
  if (facts.supersededByLaterRemoval) {
    return warn(`made ${id} before it failed, but a later deploy removed ${entry.logicalId}; ${MANUAL}`);
  }
  if (facts.orphanRecordHoldsIt) {
    return warn(
      `made ${id} before it failed, but a rollback-orphan record holds ${entry.logicalId} or ${id}; ${MANUAL}`,
    );
  }

  // Otherwise state decides.
  const compares = facts.path === 'deploy-success' || facts.keptByFixForward === true;
  const needsIdentityProof = compares && !needsNoCreationIdentity(type);
  let provenOther = false;
  const own = facts.records[entry.logicalId];
  if (own) {
    if (own.type === type && sameId(type, own.physicalId, id)) return { kind: 'tracked' };
    // The resource a replacement was replacing does not own the replacement's new resource.
    const replaced =
      facts.replacedPhysicalId !== undefined && sameId(own.type, own.physicalId, facts.replacedPhysicalId);
    if (!replaced) {
      const outcome =
        compares && comparesLiveIdentity(type, entry.provisionedBy) ? facts.liveComparison : undefined;
      if (outcome === 'same') return { kind: 'tracked' };
      if (outcome === 'earlier-gone' && needsIdentityProof) {
        // A named resource already gone: named at info, nothing deleted. Generated ids are still sent the delete.
        return {
          kind: 'tracked',
          info: `${id}, which ${entry.logicalId}'s failed create made, is already gone`,
        };
      }
      if (outcome !== 'different' && outcome !== 'earlier-gone') {
        return warn(
          `recorded ${id}, which is not the resource state tracks under this id; not reverted, needs manual attention`,
        );
      }
      provenOther = true;
    }
  }
  for (const [logicalId, record] of Object.entries(facts.records)) {
    if (logicalId !== entry.logicalId && record.type === type && sameId(type, record.physicalId, id)) {
      return { kind: 'tracked' };
    }
  }
  if (facts.unreadableUnderPrefix !== undefined) {
    return {
      kind: 'keep-entry',
      reason: `made ${id} before it failed, but a state record under the prefix could not be read (${facts.unreadableUnderPrefix}); kept in the journal for the next successful deploy`,
      warn: true,
    };
  }
  if (facts.otherStackHoldsIt) {
    return warn(
      `made ${id} before it failed, but another stack under the same state prefix records it; not deleted, delete it yourself if it is not that stack's resource`,
    );
  }
  if (facts.deployCompletedOpUnderLogicalId && !provenOther) {
    return warn(
      `made ${id} before it failed, but this deploy completed an operation under ${entry.logicalId}; not deleted, delete it yourself if it is not that record's resource`,
    );
  }
  if (needsIdentityProof && !entry.hasCreationIdentity) {
    return warn(
      `made ${id} before it failed, but no creation identity was recorded to prove the resource now answering to that name is the same one; ${MANUAL}`,
    );
  }
  return { kind: 'delete', retain: keepsOnRollbackOfCreate(entry.deletionPolicy), needsIdentityProof };
}

function warn(reason: string): MadeDecision {
  return { kind: 'warn', reason };
}

function show(physicalId: unknown): string {
  if (typeof physicalId === 'string')
    return physicalId.trim() === '' ? JSON.stringify(physicalId) : physicalId;
  return physicalId === undefined ? 'no physical id' : (JSON.stringify(physicalId) ?? String(physicalId));
}
