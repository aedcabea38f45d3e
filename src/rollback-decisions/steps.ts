import type { ErrorCode } from '../error-codes.js';
import type { ProviderKind, CreationIdentity } from '../providers/index.js';
import type { ResourceRecord } from '../state/index.js';

/**
 * What the rollback does with one journaled operation: a plain value, printed as
 * one plan line, then carried out. Decided by pure functions (`decisions/`).
 */
export type RollbackStep =
  /** A rolled-back CREATE: delete what state records, or keep it under DeletionPolicy Retain/Snapshot. */
  | { kind: 'delete'; logicalId: string; record: ResourceRecord; retain: boolean }
  /** An in-place UPDATE put back to its before-record. */
  | {
      kind: 'revert';
      logicalId: string;
      before: ResourceRecord;
      current: ResourceRecord;
      /** A failed update's attempted properties: what AWS may hold, so the undo diffs against them. */
      attempted?: Record<string, unknown>;
    }
  /** A replacement undone: the old resource back (re-adopted or re-created), the new one deleted or kept. */
  | {
      kind: 'reverse-replace';
      logicalId: string;
      order: 'create-first' | 'delete-first';
      /** `pending`: the old copy is alive and state still lists it for deletion; `retained`: alive, untracked; `deleted`: re-create it. */
      old: 'pending' | 'retained' | 'deleted';
      before: ResourceRecord;
      /** The new copy as state records it; absent when it is already gone. */
      current?: ResourceRecord;
      /** The new copy declares UpdateReplacePolicy: Retain: it is kept running and dropped from state. */
      keepNew: boolean;
      /** Whether the new copy may be deleted first to free a name the re-create collides on. */
      mayFreeName: boolean;
      warnings: string[];
      /**
       * The old copy of a type that holds data is re-created: the replacement destroyed its data
       * and the re-created resource starts empty (spec 001, "Reversing a replacement").
       */
      startsEmpty?: true;
    }
  /** A resource a failed create made that only the journal records. */
  | {
      kind: 'delete-made';
      logicalId: string;
      type: string;
      physicalId: string;
      provisionedBy: ProviderKind;
      creationIdentity?: CreationIdentity;
      properties: Record<string, unknown>;
      retain: boolean;
      /** True when a live read must return the recorded creation identity before the delete. */
      needsIdentityProof: boolean;
      /** A successful deploy: what its own resources of this type applied (a policy's targets are left, spec 000). */
      appliedByThisDeploy?: Array<Record<string, unknown>>;
    }
  /** Replays a nested stack's segment of the same run. */
  | { kind: 'nested'; logicalId: string; runId: string }
  /**
   * Passed over. `warn` makes the run exit 2; the reason is the plan line; `keep`: the journal
   * entry stays; `note`: the reason is said at info where nothing else would show it.
   */
  | { kind: 'skip'; logicalId: string; reason: string; warn: boolean; keep?: boolean; note?: boolean }
  /** Cannot be done: the run fails (exit 1) and the journal is kept. */
  | { kind: 'refuse'; logicalId: string; code: ErrorCode; reason: string }
  /** A nested stack's failed operation its parent's replay passes over: the journal keeps it for `command`. */
  | { kind: 'leave'; logicalId: string; command: string }
  /** Dropped from the journal without an AWS call: the nested stack keeps this change. */
  | { kind: 'discard'; logicalId: string; reason: string };

export type RollbackStepKind = RollbackStep['kind'];
