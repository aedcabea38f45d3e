import type { JournalSegment } from '../state/index.js';

/** What `cdkd rollback --drop-failed` does with a journal: the lines to confirm, or why it refuses. */
export type DropFailedDecision =
  { kind: 'nothing' } | { kind: 'drop'; lines: string[] } | { kind: 'refuse'; reason: string; hint: string };

/**
 * Only what a clean automatic rollback leaves is dropped: `failed-only` segments, whose
 * completed operations are already reverted. A segment holding anything else still has
 * work for a plain `cdkd rollback`; a failed operation that made its resource (or that a
 * deploy kept) is the only record of something AWS holds, and dropping it would leave
 * that resource untracked.
 */
export function decideDropFailed(segments: readonly JournalSegment[]): DropFailedDecision {
  if (segments.length === 0) return { kind: 'nothing' };
  const unfinished = segments.filter((segment) => segment.status !== 'failed-only');
  if (unfinished.length > 0) {
    return {
      kind: 'refuse',
      reason: `the journal holds ${unfinished.length === 1 ? 'a run' : `${unfinished.length} runs`} not yet rolled back (${unfinished.map((segment) => segment.status).join(', ')})`,
      hint: 'Run cdkd rollback without --drop-failed first.',
    };
  }
  const tracking = segments.flatMap((segment) =>
    segment.operations.filter((op) => op.made !== undefined || op.keptByDeploy === true),
  );
  if (tracking.length > 0) {
    return {
      kind: 'refuse',
      reason: `the journal is the only record of what ${tracking.map((op) => op.logicalId).join(', ')} made`,
      hint: 'Run cdkd rollback --revert-failed to delete it, or a successful cdkd deploy, instead.',
    };
  }
  const lines = segments.flatMap((segment) =>
    segment.operations.map(
      (op) =>
        `${op.logicalId} (${op.type}): failed ${op.action} of run ${segment.runId}; dropped from the journal, nothing sent to AWS`,
    ),
  );
  return { kind: 'drop', lines };
}
