import { CdkdError } from '../../errors.js';
import { protectionNote, statefulnessOf, type EmptinessVerdict } from '../../resource-types/index.js';
import type { PlannedOperation, RecordedResource } from '../types.js';
import { hasPositiveRetention } from './log-group-retention.js';

/**
 * `blocked`: refused without --force-stateful-recreation. `data-loss`: allowed by the flag,
 * shown with DATA LOSS. `emptiness-unknown`: a bucket whose probe failed (fails open).
 * `retained`: UpdateReplacePolicy: Retain orphans the old resource, so no consent is needed.
 */
export type StatefulOutcome = 'allowed' | 'retained' | 'blocked' | 'data-loss' | 'emptiness-unknown';

export interface StatefulTarget {
  type: string;
  updateReplacePolicy?: string;
  /** Only for log groups: a positive RetentionInDays in either recorded bag. */
  hasRetention?: boolean;
  emptiness?: EmptinessVerdict;
}

/** Whether a conditionally stateful target is proven to hold no data. */
function provenEmpty(target: StatefulTarget): boolean | 'unknown' {
  if (target.type === 'AWS::Logs::LogGroup' && target.hasRetention) return false;
  switch (target.emptiness) {
    case 'empty':
    case 'not-found':
      return true;
    // The bucket probe fails open; the log-group probe fails closed.
    case 'probe-failed':
      return target.type === 'AWS::S3::Bucket' ? 'unknown' : false;
    default:
      // Not probed (or non-empty): an emptiness nothing measured is not an emptiness.
      return false;
  }
}

/** The stateful-resource guard's decision table for one resource about to be recreated. */
export function statefulOutcome(target: StatefulTarget, forceStatefulRecreation: boolean): StatefulOutcome {
  if (target.updateReplacePolicy === 'Retain') return 'retained';
  const statefulness = statefulnessOf(target.type);
  if (statefulness === 'not-stateful') return 'allowed';
  // The flag skips the probes, so every bucket and log group counts as data-bearing.
  if (forceStatefulRecreation) return 'data-loss';
  if (statefulness === 'stateful') return 'blocked';
  const empty = provenEmpty(target);
  if (empty === 'unknown') return 'emptiness-unknown';
  return empty ? 'allowed' : 'blocked';
}

export interface StatefulVerdict {
  logicalId: string;
  type: string;
  outcome: StatefulOutcome;
  /** For a reader flagged "replaced if the id changes": the targets it reads. */
  readerOf: string[];
}

export interface StatefulGuardInput {
  operations: readonly PlannedOperation[];
  recorded: Readonly<Record<string, RecordedResource>>;
  forceStatefulRecreation: boolean;
  /** Probe results by logical id, for the targets `emptinessProbeTargets` listed. */
  emptiness?: Readonly<Record<string, EmptinessVerdict>>;
}

/** Replacements, and readers that are replaced if their target's id changes. */
function recreated(operations: readonly PlannedOperation[]): PlannedOperation[] {
  return operations.filter((op) => op.kind === 'replace' || op.replacedIfIdChanges);
}

function targetOf(op: PlannedOperation, input: StatefulGuardInput): StatefulTarget {
  const record = input.recorded[op.logicalId];
  const emptiness = input.emptiness?.[op.logicalId];
  return {
    // The old resource is the one whose data is at stake.
    type: op.previousType ?? op.type,
    ...(op.updateReplacePolicy !== undefined && { updateReplacePolicy: op.updateReplacePolicy }),
    ...(record && { hasRetention: hasPositiveRetention(record) }),
    ...(emptiness !== undefined && { emptiness }),
  };
}

/** The conditionally stateful resources the engine should probe before deploying. */
export function emptinessProbeTargets(
  operations: readonly PlannedOperation[],
  recorded: Readonly<Record<string, RecordedResource>>,
): { logicalId: string; type: string; physicalId: string }[] {
  return recreated(operations).flatMap((op) => {
    const record = recorded[op.logicalId];
    const target = targetOf(op, { operations, recorded, forceStatefulRecreation: false });
    const needsProbe =
      record !== undefined &&
      target.updateReplacePolicy !== 'Retain' &&
      statefulnessOf(target.type) === 'conditional' &&
      !(target.type === 'AWS::Logs::LogGroup' && target.hasRetention);
    return needsProbe ? [{ logicalId: op.logicalId, type: target.type, physicalId: record.physicalId }] : [];
  });
}

/**
 * Spec 002's stateful-resource guard over a plan: returns a verdict per recreated resource
 * (for DATA LOSS / UNKNOWN rows) and throws STATEFUL_REPLACE_BLOCKED, naming every blocked
 * one, before anything is touched.
 */
export function checkStatefulReplacements(input: StatefulGuardInput): StatefulVerdict[] {
  const verdicts = recreated(input.operations).map((op) => ({
    logicalId: op.logicalId,
    type: op.previousType ?? op.type,
    outcome: statefulOutcome(targetOf(op, input), input.forceStatefulRecreation),
    readerOf: op.kind === 'replace' ? [] : op.reresolveAfter,
  }));
  const blocked = verdicts.filter((v) => v.outcome === 'blocked');
  if (blocked.length > 0) {
    const names = blocked.map(
      (v) =>
        `${v.logicalId} (${v.type})${v.readerOf.length > 0 ? `, a reader of ${v.readerOf.join(', ')}` : ''}`,
    );
    throw new CdkdError(
      'STATEFUL_REPLACE_BLOCKED',
      `This deploy would replace stateful resources, destroying their data: ${names.join('; ')}.`,
      {
        hint: [
          'Pass --force-stateful-recreation to replace them anyway (no automatic data migration), ' +
            'or declare UpdateReplacePolicy: Retain to keep the old resource.',
          ...blocked.flatMap((v) => {
            const record = input.recorded[v.logicalId];
            return record ? (protectionNote(v.logicalId, v.type, record) ?? []) : [];
          }),
        ].join(' '),
      },
    );
  }
  return verdicts;
}
