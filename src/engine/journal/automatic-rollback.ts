import type { JournalSegment, EventLog } from '../../state/index.js';
import {
  remainingSegment,
  rollbackEvent,
  runRollback,
  type RollbackPath,
  type RollbackReport,
} from '../../rollback/index.js';
import { describeStep, type NestedScope } from '../../rollback/index.js';
import type { MadeContext, ReplayServices } from '../../rollback/index.js';
import type { EngineContext } from '../engine-context.js';
import type { EventSink } from '../events.js';
import type { RunJournal } from './run-journal.js';
import type { StackState } from '../../stack-state/index.js';

export interface SegmentRollbackInput {
  state: StackState;
  journal: RunJournal;
  segment: JournalSegment;
  services: ReplayServices;
  knownType(type: string): boolean;
  events: EventSink;
  log: EventLog;
  path: RollbackPath;
  revertFailed: boolean;
  orphan: ReadonlySet<string>;
  force: boolean;
  /** A nested stack's rollback: how it stands to its parent's journal (spec 001). */
  nested?: NestedScope;
  gathered?: MadeContext['gathered'];
  /** `cdkd rollback`'s first signal: no new step starts. */
  signal?: AbortSignal;
  /**
   * The journal as the plan saw it. A command rollback removes each segment it finishes, and
   * an older one is still decided with the newer ones in view (spec 000, "a NEWER journal segment").
   */
  journalSegments?: readonly JournalSegment[];
}

/**
 * Rolls one segment back and leaves the journal as spec 003 says: a clean
 * automatic rollback keeps only the failed operations; one that skipped or
 * failed keeps the whole segment; a command rollback that failed nothing
 * clears it. Every step is reported and recorded as a deployment event.
 */
export async function rollBackSegment(input: SegmentRollbackInput): Promise<RollbackReport> {
  const stack = input.state.ref.stackName;
  input.log.record({ status: 'ROLLBACK_IN_PROGRESS' });
  const report = await runRollback({
    state: input.state,
    segment: input.segment,
    segments: input.journalSegments ?? input.journal.document.segments,
    path: input.path,
    services: input.services,
    options: {
      revertFailed: input.revertFailed,
      orphan: input.orphan,
      force: input.force,
      ...(input.nested ? { nested: input.nested } : {}),
    },
    knownType: input.knownType,
    ...(input.gathered ? { gathered: input.gathered } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    onOutcome: (planned, outcome) => {
      input.log.record(rollbackEvent(planned, outcome));
      for (const message of outcome.warnings ?? []) input.events({ kind: 'warning', stack, message });
      // CloudFormation's DELETE_SKIPPED: only the new copy UpdateReplacePolicy: Retain keeps.
      const retainedNew = planned.step.kind === 'reverse-replace' && planned.step.keepNew;
      if (outcome.survivor && retainedNew && outcome.status === 'succeeded') {
        input.log.record({
          status: 'DELETE_SKIPPED',
          logicalId: planned.op.logicalId,
          resourceType: planned.op.type,
          survivorId: outcome.survivor.physicalId,
          managedBy: outcome.survivor.managedBy,
          reason: 'UpdateReplacePolicy: Retain keeps the new copy; no longer tracked',
        });
      }
      const quiet = (planned.step.kind === 'skip' && !planned.step.warn) || planned.step.kind === 'discard';
      if (quiet && outcome.status === 'skipped') return;
      input.events({
        kind: 'rollback',
        stack,
        logicalId: planned.op.logicalId,
        status: outcome.status,
        warn: outcome.warn,
        message: `Rollback: ${describeStep(planned)}: ${outcome.status}: ${outcome.code ? `${outcome.code}: ` : ''}${outcome.message}`,
      });
    },
  });
  for (const putBack of report.putBacks) {
    input.log.record({
      status: putBack.status === 'succeeded' ? 'ROLLBACK_RESOURCE_SUCCEEDED' : 'ROLLBACK_RESOURCE_SKIPPED',
      logicalId: putBack.logicalId,
      resourceType: putBack.type,
      reason: putBack.message,
    });
    input.events({
      kind: 'rollback',
      stack,
      logicalId: putBack.logicalId,
      status: putBack.status,
      warn: putBack.warn,
      message: `Rollback: ${putBack.message}`,
    });
  }
  const unsaved = report.unsaved ? `the stack record could not be saved: ${report.unsaved}` : undefined;
  if (unsaved) {
    input.events({
      kind: 'warning',
      stack,
      message: `Rollback: ${unsaved}; the rollback is not complete and the journal is kept for a re-run`,
    });
  }
  input.log.record({
    status: report.exitCode === 1 ? 'ROLLBACK_FAILED' : 'ROLLBACK_COMPLETE',
    ...(report.exitCode === 2 ? { reason: 'some operations need attention (see the events above)' } : {}),
    ...(unsaved ? { reason: unsaved } : {}),
  });
  const document = input.journal.document;
  const index = document.segments.indexOf(input.segment);
  const remaining = remainingSegment(input.segment, report, input.path);
  if (remaining) document.segments[index] = withRollbackOutcome(remaining, report);
  else document.segments.splice(index, 1);
  await input.journal.persist();
  await input.log.flush();
  return report;
}

/**
 * Marks a segment whose rollback failed (not one a signal stopped), which refuses later deploys
 * until a rollback completes (spec 004, UPDATE_ROLLBACK_FAILED); a rollback that did not fail clears it.
 */
function withRollbackOutcome(segment: JournalSegment, report: RollbackReport): JournalSegment {
  const failed = report.outcomes.find((outcome) => outcome.status === 'failed');
  const reason = failed ? `${failed.logicalId}: ${failed.message}` : report.unsaved;
  if (report.exitCode === 1 && reason !== undefined) {
    return { ...segment, rollbackFailed: { at: new Date().toISOString(), reason } };
  }
  const rest = { ...segment };
  delete rest.rollbackFailed;
  return rest;
}

/** A stack the rollback returned to "never deployed" keeps no state behind. */
export async function removeEmptyState(engine: EngineContext, state: StackState): Promise<void> {
  const document = state.document;
  if (document.template || Object.keys(document.resources).length > 0 || document.pendingDeletes.length > 0) {
    return;
  }
  await state.flush();
  await engine.backend.store.remove(state.ref);
}
