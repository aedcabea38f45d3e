import { CdkdError } from '../../errors.js';
import { leftCommand } from '../../rollback/index.js';
import type { ReplayServices, StepOutcome } from '../../rollback/index.js';
import type { JournalOperation, JournalSegment } from '../../state/index.js';
import { isExpired } from '../../state/lock.js';
import { FAIL_FAST_SCHEDULE, RETRY_SCHEDULE } from '../../state/lock-schedule.js';
import { removeEmptyState, rollBackSegment } from './automatic-rollback.js';
import { gatherMadeFacts } from './made-facts.js';
import { nestedScope, parentStateName, planLines } from './rollback-plan-lines.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import { reconcileSegments } from './locate-in-flight.js';
import { nestedIdentity } from '../nested/index.js';
import { RunJournal } from './run-journal.js';
import { StackState } from '../../stack-state/index.js';
import { settleStaleRecords } from './stale-records.js';
import { replayCalls, type ReplayCallsInput } from './replay-calls.js';
import { confirmPlan } from '../../messages/index.js';

export interface RollbackRequest {
  stack: StackIdentity;
  revertFailed: boolean;
  orphan: ReadonlySet<string>;
  force: boolean;
  /** The plan was agreed already (a parent replaying this nested stack): not asked again. */
  agreed?: true;
  /** Set when a parent replays this nested stack: only that run's segment, its failed operations left in the journal. */
  runId?: string;
  /** The prefix setting for a segment whose journal does not record one (an older cdkd wrote it). */
  namePrefixFallback?: () => NamePrefixFallback;
  /** The first SIGINT/SIGTERM: steps in flight finish, none starts, the journal keeps the rest (spec 003). */
  signal?: AbortSignal;
}

/** --prefix-user-supplied-names as the env or cdk.json give it, and how to name that choice. */
export interface NamePrefixFallback {
  value: boolean;
  description: string;
}

export interface StackRollbackResult {
  stackName: string;
  /** False when the stack has no rollback journal: nothing to do. */
  found: boolean;
  lines: string[];
  confirmed: boolean;
  exitCode: 0 | 1 | 2;
  /** A nested stack its parent replayed: the command that rolls back the failed operations its journal kept. */
  left?: string;
  /** Operations the journal still holds for a later run (a person checks them first where warned about). */
  kept?: number;
}

/**
 * `cdkd rollback`: replays a stack's journal without synthesis. Settles what a
 * killed process left in flight by reading the cloud, prints the plan, asks,
 * then reverts each segment newest first; a nested stack's update is reverted
 * by replaying that stack's own segment of the same run. Rolled back directly, a
 * nested stack discards the completed operations its parent moved on from.
 */
export async function rollbackStack(
  engine: EngineContext,
  request: RollbackRequest,
): Promise<StackRollbackResult> {
  const { stack } = request;
  const ref = { stackName: stack.stateName, region: stack.region };
  const result = (
    found: boolean,
    lines: string[],
    confirmed: boolean,
    exitCode: 0 | 1 | 2,
    left?: string,
    kept?: number,
  ): StackRollbackResult => ({
    stackName: stack.stackName,
    found,
    lines,
    confirmed,
    exitCode,
    ...(left ? { left } : {}),
    ...(kept ? { kept } : {}),
  });
  if (stack.isNested && request.runId === undefined) await refuseWhileParentHoldsRun(engine, stack);
  const lock = await engine.backend.locks.acquire(ref, {
    operation: 'rollback',
    schedule: stack.isNested ? FAIL_FAST_SCHEDULE : RETRY_SCHEDULE,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  try {
    // A parent's replay of one run leaves the child's other segments to its own rollback.
    if (request.runId === undefined)
      await settleStaleRecords(engine, stack, await StackState.open(engine.backend.store, ref), {
        persist: true,
      });
    const journal = await RunJournal.open(engine.backend.journals, ref);
    const segments = journal.document.segments
      .filter((segment) => request.runId === undefined || segment.runId === request.runId)
      .reverse();
    if (segments.length === 0) return result(false, [], false, 0);
    const state = await StackState.open(engine.backend.store, ref);
    const services = replayServices(engine, {
      stack,
      state,
      flags: request,
      direct: stack.isNested === true && request.runId === undefined,
    });
    await reconcileSegments(segments, state.document, services);
    const knownType = (type: string) => services.router.canHandle(type);
    const nested = nestedScope(stack, request.runId);
    const options = {
      revertFailed: request.revertFailed,
      orphan: request.orphan,
      ...(nested ? { nested } : {}),
    };
    const gathered = await gatherMadeFacts(engine, {
      ref,
      segments,
      state: state.document,
      path: 'rollback',
      services,
    });
    const lines = await planLines(engine, {
      stack,
      segments,
      journalSegments: journal.document.segments,
      state: state.document,
      options,
      services,
      gathered,
      servicesFor: (child, childState) =>
        replayServices(engine, { stack: child, state: childState, flags: request }),
    });
    // Asked through the IO host; a "no" stops before anything is touched.
    const agreed =
      request.agreed ??
      (await confirmPlan(engine.io, engine.command, {
        heading: 'Rollback plan:',
        lines,
        question: 'Carry out this rollback?',
      }));
    if (!agreed) return result(true, lines, false, 0);

    let exitCode: 0 | 1 | 2 = 0;
    const left: JournalOperation[] = [];
    const journalSegments = [...journal.document.segments];
    for (const segment of segments) {
      const report = await rollBackSegment({
        state,
        journal,
        segment,
        services: withNamePrefix(engine, services, segment, request),
        knownType,
        gathered,
        events: engine.events,
        log: engine.eventLog(ref, segment.runId),
        path: 'rollback',
        revertFailed: request.revertFailed,
        orphan: request.orphan,
        force: request.force,
        ...(nested ? { nested } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        journalSegments,
      });
      left.push(...report.planned.filter(({ step }) => step.kind === 'leave').map(({ op }) => op));
      exitCode = Math.max(exitCode, report.exitCode) as 0 | 1 | 2;
      if (report.exitCode === 1) break;
      if (request.signal?.aborted && segment !== segments.at(-1)) {
        exitCode = 1;
        break;
      }
    }
    await removeEmptyState(engine, state);
    const command =
      nested?.kind === 'replayed' && left.length > 0 ? leftCommand(nested.stack, left) : undefined;
    const kept = journal.document.segments
      .filter((segment) => segments.some((rolled) => rolled.runId === segment.runId))
      .reduce((count, segment) => count + segment.operations.length, 0);
    return result(true, lines, true, exitCode, command, kept);
  } catch (error) {
    throw await lock.releaseAfter(error);
  } finally {
    await lock.release();
  }
}

/** The flags a rollback runs with; a nested stack's replay inherits its parent's. */
export type RollbackFlags = Pick<
  RollbackRequest,
  'revertFailed' | 'orphan' | 'force' | 'namePrefixFallback' | 'signal'
>;

const AUTOMATIC: RollbackFlags = { revertFailed: false, orphan: new Set(), force: false };

/** What replaying a stack's journal needs; a nested stack's update is replayed through its own journal. */
export function replayServices(
  engine: EngineContext,
  input: ReplayCallsInput & { flags?: RollbackFlags },
): ReplayServices {
  const flags = input.flags ?? AUTOMATIC;
  return {
    ...replayCalls(engine, { ...input, signal: input.options?.signal ?? flags.signal }),
    replayNested: (logicalId, runId) => replayChild(engine, input.stack, flags, logicalId, runId),
  };
}

/**
 * Spec 001, "Names of re-created resources": a segment re-creates names under the setting
 * its deploy journaled; one that records none takes the fallback, with a warning naming it.
 */
function withNamePrefix(
  engine: EngineContext,
  services: ReplayServices,
  segment: JournalSegment,
  request: RollbackRequest,
): ReplayServices {
  let prefix = segment.flags.prefixUserSuppliedNames;
  if (prefix === undefined) {
    const fallback = request.namePrefixFallback?.() ?? {
      value: false,
      description: 'no prefix (the default)',
    };
    prefix = fallback.value;
    const stateName = request.stack.stateName;
    const command = request.runId === undefined ? stateName.replaceAll('/', '~') : stateName.split('/')[0]!;
    engine.events({
      kind: 'warning',
      stack: request.stack.stackName,
      message: `The journal of ${stateName} (run ${segment.runId}, cdkd ${segment.cdkdVersion}) does not record --prefix-user-supplied-names; the rollback uses ${fallback.description} for the names it re-creates. If the failed deploy ran with the prefix, run: CDKD_PREFIX_USER_SUPPLIED_NAMES=true cdkd rollback ${command}`,
    });
  }
  return { ...services, context: { ...services.context, prefixUserSuppliedNames: prefix } };
}

async function replayChild(
  engine: EngineContext,
  parent: StackIdentity,
  flags: RollbackFlags,
  logicalId: string,
  runId: string,
): Promise<StepOutcome> {
  const child = await rollbackStack(engine, {
    ...flags,
    runId,
    stack: nestedIdentity(parent, logicalId),
    agreed: true,
  });
  if (!child.found) {
    return {
      logicalId,
      status: 'failed',
      warn: false,
      message:
        'the nested stack has no journal segment for this run (an older cdkd wrote it, or it was removed)',
    };
  }
  const status = child.exitCode === 1 ? 'failed' : 'succeeded';
  const partial =
    child.exitCode === 2 ? ' (partial: some of its operations need attention; cdkd events lists them)' : '';
  // What failed inside the nested stack still needs a person to run its own rollback: exit 2.
  const left = child.left ? `; what failed inside it is left for its own rollback: ${child.left}` : '';
  return {
    logicalId,
    status,
    warn: child.exitCode === 2 || left !== '',
    message: `replayed the nested stack${partial}${left}`,
  };
}

async function refuseWhileParentHoldsRun(engine: EngineContext, stack: StackIdentity): Promise<void> {
  const topLevel = stack.stateName.split('/')[0]!;
  const parentRef = { stackName: parentStateName(stack), region: stack.region };
  const own = await engine.backend.journals.read({ stackName: stack.stateName, region: stack.region });
  const parent = await engine.backend.journals.read(parentRef).catch(() => 'unreadable' as const);
  const runs = new Set(own?.document.segments.map((segment) => segment.runId) ?? []);
  const held =
    parent === 'unreadable' ||
    (parent?.document.segments.some((segment) => runs.has(segment.runId)) ?? false);
  if (!held) {
    const lock = await engine.backend.locks.find({ stackName: topLevel, region: stack.region });
    const deploying =
      lock.kind === 'readable' &&
      lock.document.operation === 'deploy' &&
      !isExpired(lock.document, new Date());
    if (!deploying) return;
    throw new CdkdError(
      'ROLLBACK_NESTED_VIA_PARENT',
      `A running deploy holds the lock of ${topLevel}, the top-level stack of nested stack ${stack.stateName}.`,
      {
        hint: `Wait for it to end, then roll back the top-level stack if it fails: cdkd rollback ${topLevel}`,
      },
    );
  }
  if (parent === 'unreadable') {
    throw new CdkdError(
      'ROLLBACK_NESTED_VIA_PARENT',
      `The journal of ${parentRef.stackName} cannot be read, so cdkd cannot tell whether it still holds the run that changed nested stack ${stack.stateName}.`,
      {
        hint: `Restore that journal from the state bucket's version history, then roll back the top-level stack: cdkd rollback ${topLevel}`,
      },
    );
  }
  throw new CdkdError(
    'ROLLBACK_NESTED_VIA_PARENT',
    `The journal of ${parentRef.stackName} still holds the run that changed nested stack ${stack.stateName}.`,
    { hint: `Roll back the top-level stack instead: cdkd rollback ${topLevel}` },
  );
}
