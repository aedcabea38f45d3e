import type { JournalOperation, JournalSegment, StateDocument } from '../state/index.js';
import { decideMadeResource, type MadePath, type MadeResourceFacts } from '../rollback-decisions/index.js';
import { sameId } from '../resource-types/index.js';
import type { RollbackStep } from '../rollback-decisions/index.js';

export interface MadeContext {
  path: MadePath;
  /** The whole journal, oldest segment first. */
  segments: readonly JournalSegment[];
  /** The segment holding the entry. */
  segment: JournalSegment;
  state: StateDocument;
  /** A successful deploy: the logical ids its own run completed an operation under. */
  completedThisRun?: ReadonlySet<string>;
  /** A successful deploy: the properties its own completed operations applied, by type. */
  appliedThisRun?: ReadonlyMap<string, Array<Record<string, unknown>>>;
  /** What reading the cloud, the events and other stacks told about each entry (engine/made-facts.ts). */
  gathered?: ReadonlyMap<JournalOperation, Partial<MadeResourceFacts>>;
}

/**
 * What every path does with a resource a failed create made, which only the
 * journal records: the facts `decideMadeResource` reads, gathered from the
 * journal and state, and its verdict as a rollback step.
 */
export function madeStep(op: JournalOperation, context: MadeContext): RollbackStep {
  const made = op.made!;
  const newer = context.segments.slice(context.segments.indexOf(context.segment) + 1);
  const newerOps = newer.flatMap((segment) => segment.operations);
  const decision = decideMadeResource({
    path: context.path,
    entry: {
      logicalId: op.logicalId,
      type: op.type,
      physicalId: made.physicalId,
      ...(op.deletionPolicy ? { deletionPolicy: op.deletionPolicy } : {}),
      hasCreationIdentity: made.creationIdentity !== undefined,
      provisionedBy: made.provisionedBy,
    },
    records: context.state.resources,
    ...(op.action === 'replace' && typeof op.before?.physicalId === 'string'
      ? { replacedPhysicalId: op.before.physicalId }
      : {}),
    newerSegmentNamesIt: newerOps.some(
      (other) =>
        other.type === op.type &&
        (names(op.type, other.physicalId, made.physicalId) ||
          names(op.type, other.previousPhysicalId, made.physicalId) ||
          (other.action === 'create' && other.status === 'completed')),
    ),
    supersededByLaterRemoval: newerOps.some(
      (other) =>
        other.logicalId === op.logicalId && other.action === 'delete' && other.status === 'completed',
    ),
    deployCompletedOpUnderLogicalId: context.completedThisRun?.has(op.logicalId) ?? false,
    keptByFixForward: op.keptByDeploy === true,
    ...context.gathered?.get(op),
  });
  switch (decision.kind) {
    case 'delete':
      return {
        kind: 'delete-made',
        logicalId: op.logicalId,
        type: op.type,
        physicalId: made.physicalId as string,
        provisionedBy: made.provisionedBy,
        ...(made.creationIdentity ? { creationIdentity: made.creationIdentity } : {}),
        properties: made.properties,
        retain: decision.retain,
        needsIdentityProof: decision.needsIdentityProof,
        ...(context.appliedThisRun?.has(op.type)
          ? { appliedByThisDeploy: context.appliedThisRun.get(op.type)! }
          : {}),
      };
    case 'tracked':
      return {
        kind: 'skip',
        logicalId: op.logicalId,
        reason: decision.info ?? 'tracked by state',
        warn: false,
        ...(decision.info ? { note: true } : {}),
      };
    case 'keep-entry':
      return {
        kind: 'skip',
        logicalId: op.logicalId,
        reason: decision.reason,
        warn: decision.warn,
        keep: true,
      };
    case 'warn':
      return { kind: 'skip', logicalId: op.logicalId, reason: decision.reason, warn: true };
    case 'skip-unaddressable':
      // The entry is that resource's only record: a rollback keeps it for a person to act on.
      return {
        kind: 'skip',
        logicalId: op.logicalId,
        reason: decision.reason,
        warn: true,
        ...(isRollback(context.path) && { keep: true }),
      };
  }
}

function isRollback(path: MadeContext['path']): boolean {
  return path === 'rollback' || path === 'automatic-rollback';
}

/** Whether a journaled id names the made resource, compared as AWS compares that type's ids (spec 000). */
function names(type: string, id: unknown, madeId: unknown): boolean {
  return typeof id === 'string' && typeof madeId === 'string' && sameId(type, id, madeId);
}
