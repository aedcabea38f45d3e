import { messageOf } from '../errors.js';
import { walkDag } from '../dag/index.js';
import { isAddressable } from '../rollback-decisions/index.js';
import type { StackState } from '../stack-state/index.js';
import type { JournalSegment, StackGeneration, StackEvent } from '../state/index.js';
import type { MadeContext } from './made-step.js';
import { planRollback, type PlannedStep, type RollbackOptions } from './plan-rollback.js';
import { putBackInlinePolicies, type PutBackOutcome } from './inline-policy-put-back.js';
import { replayDependencies } from './replay-order.js';
import { replayStep, type ReplayServices, type StepOutcome } from './replay-step.js';

/** Steps replayed at once, at most. */
const REPLAY_CONCURRENCY = 8;

/** The automatic rollback of a failed deploy, or `cdkd rollback`. */
export type RollbackPath = 'automatic-rollback' | 'rollback';

export interface RollbackReport {
  planned: PlannedStep[];
  outcomes: StepOutcome[];
  /** IAM inline policies put back after the steps (spec 000, "IAM inline policy names moved between resources"). */
  putBacks: PutBackOutcome[];
  /** 0 done; 1 an operation failed (journal kept); 2 done, but something needs a person. */
  exitCode: 0 | 1 | 2;
  /** Nothing failed and nothing was skipped with a warning (a kept survivor still exits 2). */
  clean: boolean;
  /** A signal stopped the run before every step started; the steps not reached have no outcome. */
  interrupted: boolean;
  /**
   * Why the stack record the rollback returned to could not be saved: the rollback then
   * reports failure, never a completion it did not persist (spec 004, UPDATE_ROLLBACK_FAILED).
   */
  unsaved?: string;
}

export interface RunRollbackInput {
  state: StackState;
  segment: JournalSegment;
  /** The whole journal, oldest segment first. */
  segments: readonly JournalSegment[];
  path: RollbackPath;
  services: ReplayServices;
  options: RollbackOptions & { force?: boolean };
  knownType(type: string): boolean;
  gathered?: MadeContext['gathered'];
  /** `cdkd rollback`'s first signal: the steps in flight finish, no new one starts (spec 003). */
  signal?: AbortSignal;
  /** Called as each step ends, for progress and the stack's events. */
  onOutcome(planned: PlannedStep, outcome: StepOutcome): void;
}

/**
 * Replays one journal segment: plans the steps against state as it is now,
 * carries them out newest operation first (independent ones at once, see
 * `replayDependencies`), and — when nothing failed — puts the stack record back to the generation the run started from
 * (spec 004, "What an update rollback puts back").
 */
export async function runRollback(input: RunRollbackInput): Promise<RollbackReport> {
  const planned = planRollback({
    segment: input.segment,
    segments: input.segments,
    state: input.state.document,
    options: input.options,
    path: input.path,
    knownType: input.knownType,
    ...(input.gathered ? { gathered: input.gathered } : {}),
  });
  const outcomes: StepOutcome[] = [];
  const waits = replayDependencies(planned);
  const held = new Set<number>();
  // Independent steps replay at once; every pair whose order matters keeps the plan's order.
  const walk = await walkDag(
    planned.map((_, index) => ({ id: String(index), dependsOn: waits[index]!.map(String) })),
    async (id) => {
      const entry = planned[Number(id)]!;
      const blocker = waits[Number(id)]!.find(
        (index) => outcomes[index]?.status === 'failed' || held.has(index),
      );
      if (blocker !== undefined) {
        // What an ordered pair protects (a reader reverted before what it reads) would be lost: keep it for the re-run.
        held.add(Number(id));
        outcomes[Number(id)] = {
          logicalId: entry.op.logicalId,
          status: 'skipped',
          warn: false,
          message: `not run: it waits for ${planned[blocker]!.op.logicalId}, whose step did not complete; the journal keeps it for a re-run`,
        };
        input.onOutcome(entry, outcomes[Number(id)]!);
        return;
      }
      let outcome = await replayStep(entry.step, input.services);
      if (outcome.status === 'failed' && input.options.force)
        outcome = await orphan(entry, outcome, input.state);
      outcomes[Number(id)] = outcome;
      input.onOutcome(entry, outcome);
    },
    {
      concurrency: REPLAY_CONCURRENCY,
      priority: (id) => -Number(id),
      ...(input.signal ? { signal: input.signal } : {}),
    },
  );
  const interrupted = walk.notStarted.length > 0;
  // A step's own failure is its outcome; what throws here is the bookkeeping (state, events).
  if (walk.failed.length > 0) throw walk.failed[0]!.error;
  const putBacks = await putBackInlinePolicies(planned, outcomes, input.services);
  const failed = outcomes.some((outcome) => outcome.status === 'failed');
  // Steps an interrupt kept from starting leave holes in `outcomes`, which `some` passes over.
  const warned = outcomes.some((outcome) => outcome.warn) || putBacks.some((outcome) => outcome.warn);
  // Spec 003: only a skip makes a rollback unclean; a kept survivor is a success that still exits 2.
  const skippedWithWarning = outcomes.some((outcome) => outcome.status === 'skipped' && outcome.warn);
  // Spec 003, "cdkd rollback exit 2": failed operations the journal keeps (for --revert-failed) need a person.
  const keptFailed =
    input.path === 'rollback' && planned.some(({ step }) => step.kind === 'skip' && step.keep === true);
  // A direct rollback of a nested stack keeps the run's completed changes, so its stack record stays too.
  if (!failed && !interrupted && input.options.nested?.kind !== 'direct') {
    restoreGeneration(input.state, input.segment.previous);
  }
  const unsaved = await input.state.save().then(
    () => undefined,
    (error: unknown) => messageOf(error),
  );
  await input.state.flush();
  return {
    planned,
    outcomes,
    putBacks,
    exitCode: failed || interrupted || unsaved ? 1 : warned || keptFailed ? 2 : 0,
    clean: !failed && !skippedWithWarning && !interrupted && !unsaved,
    interrupted,
    ...(unsaved ? { unsaved } : {}),
  };
}

/**
 * `--force`: what fails is left in AWS, dropped from state, and reported by id. A resource a
 * failed create made is not the state record under its logical id (that may be the resource
 * a replacement was replacing), so only its own id is reported; an id no one can address is not.
 */
async function orphan(entry: PlannedStep, failure: StepOutcome, state: StackState): Promise<StepOutcome> {
  const { op, step } = entry;
  const orphaned = (left: string[], survivor?: StepOutcome['survivor']): StepOutcome => ({
    logicalId: op.logicalId,
    status: 'skipped',
    warn: true,
    message: `orphaned (--force) after: ${failure.message}${left.length > 0 ? `; left in AWS, untracked: ${left.join(', ')}` : ''}`,
    ...(survivor ? { survivor } : {}),
  });
  if (step.kind === 'delete-made') {
    return orphaned([step.physicalId], { physicalId: step.physicalId, managedBy: step.provisionedBy });
  }
  const record = state.record(op.logicalId);
  if (record) await state.removeRecord(op.logicalId);
  // A retained old resource only the journal names is dropped with it: name it too.
  const retainedOld = op.verdict?.oldRetained ? op.previousPhysicalId : undefined;
  const left = [record?.physicalId, retainedOld].filter(isAddressable);
  const managedBy = record?.provisionedBy ?? op.before?.provisionedBy ?? 'cc-api';
  return orphaned(left, left[0] ? { physicalId: left[0], managedBy } : undefined);
}

/** Puts the stack record (template, parameters, tags, outputs, imports) back to `previous` (spec 004). */
export function restoreGeneration(state: StackState, previous: StackGeneration): void {
  const document = state.document;
  if (previous.template) document.template = previous.template;
  else delete document.template;
  if (previous.templateHash) document.templateHash = previous.templateHash;
  else delete document.templateHash;
  document.parameters = previous.parameters;
  document.tags = previous.tags;
  document.outputs = previous.outputs;
  document.imports = previous.imports;
}

/** The deployment event a step's outcome records (spec 003, "cdkd rollback exit 2"). */
export function rollbackEvent(
  planned: PlannedStep,
  outcome: StepOutcome,
): Omit<StackEvent, 'timestamp' | 'runId'> {
  const status =
    outcome.status === 'failed'
      ? 'ROLLBACK_RESOURCE_FAILED'
      : outcome.status === 'skipped'
        ? 'ROLLBACK_RESOURCE_SKIPPED'
        : 'ROLLBACK_RESOURCE_SUCCEEDED';
  const physicalId = planned.op.physicalId;
  return {
    status,
    logicalId: planned.op.logicalId,
    resourceType: planned.op.type,
    ...(typeof physicalId === 'string' && physicalId ? { physicalId } : {}),
    ...(outcome.survivor
      ? { survivorId: outcome.survivor.physicalId, managedBy: outcome.survivor.managedBy }
      : {}),
    reason: outcome.code ? `${outcome.code}: ${outcome.message}` : outcome.message,
  };
}

/**
 * What is left of a segment after its rollback: nothing when every operation was
 * reverted or discarded and none failed; only the failed operations after a clean
 * automatic rollback or a `cdkd rollback` without --revert-failed (so that flag can
 * still act on them), or those a parent's
 * replay left for the nested stack's own rollback; after a failed step, every
 * operation not yet undone of a `cdkd rollback`, so its re-run does not meet what it
 * already reverted; the whole segment after an automatic rollback that skipped or failed one.
 */
export function remainingSegment(
  segment: JournalSegment,
  report: RollbackReport,
  path: RollbackPath,
): JournalSegment | undefined {
  const failedStep = report.outcomes.some((outcome) => outcome.status === 'failed');
  // Spec 000: a step of the automatic rollback that fails keeps its full segment.
  if (failedStep && path === 'automatic-rollback') return { ...segment, status: 'failed' };
  if (failedStep || report.interrupted || report.unsaved) {
    const undone = new Set(
      report.planned
        .filter(
          ({ step }, index) => step.kind === 'discard' || report.outcomes[index]?.status === 'succeeded',
        )
        .map(({ op }) => op),
    );
    for (const [index, { op }] of report.planned.entries()) {
      if (report.outcomes[index]?.status === 'failed') undone.delete(op);
    }
    const operations = segment.operations.filter((op) => !undone.has(op));
    return { ...segment, status: report.interrupted ? 'interrupted' : 'failed', operations };
  }
  if (path === 'rollback') {
    // Failed operations left for the nested stack's own rollback, or passed over for --revert-failed.
    const kept = new Set(
      report.planned
        .filter(({ step }) => step.kind === 'leave' || (step.kind === 'skip' && step.keep === true))
        .map(({ op }) => op),
    );
    const operations = segment.operations.filter((op) => kept.has(op));
    return operations.length > 0 ? { ...segment, status: 'failed-only', operations } : undefined;
  }
  if (!report.clean) return { ...segment, status: 'failed' };
  const failedOps = segment.operations.filter((op) => op.status === 'failed' && !op.made);
  return failedOps.length > 0 ? { ...segment, status: 'failed-only', operations: failedOps } : undefined;
}
