import { gatherMadeFacts } from './made-facts.js';
import { CdkdError, isCdkdError, messageOf } from '../../errors.js';
import type { ReplayServices } from '../../rollback/index.js';
import type { JournalDocument, StackGeneration, StateDocument, EventLog } from '../../state/index.js';
import { restoreGeneration } from '../../rollback/index.js';
import { removeEmptyState, rollBackSegment } from './automatic-rollback.js';
import type { EngineContext } from '../engine-context.js';
import { journalNote, settleMadeResources, type SettleInput } from './journal-lifetime.js';
import { reconcileSegments, unsettledInFlight } from './locate-in-flight.js';
import type { RunJournal } from './run-journal.js';
import { openJournalOrSetAside } from './unreadable-journal.js';
import type { DeployOptions, StackRequest } from '../stack-request.js';
import { StackState } from '../../stack-state/index.js';
import { nestedStacksOf } from '../nested/index.js';
import { replayServices } from './rollback-stack.js';
import type { StackIdentity } from '../engine-context.js';

/** The stack record a rollback returns to: what state held before the run. */
export function generationOf(document: StateDocument): StackGeneration {
  return {
    ...(document.template ? { template: document.template } : {}),
    ...(document.templateHash ? { templateHash: document.templateHash } : {}),
    parameters: document.parameters,
    tags: document.tags,
    outputs: document.outputs,
    imports: document.imports,
  };
}

interface FailedDeploy {
  state: StackState;
  journal: RunJournal;
  log: EventLog;
  replay: ReplayServices;
  options: DeployOptions;
  failure: unknown;
  /** The stack record before the run, which a failure that touched nothing returns to. */
  previous: StackGeneration;
}

/**
 * Spec 003, "How cdkd prevents orphans": state is saved and the journal
 * written before anything else; then, unless `--no-rollback` or an interrupt,
 * the run's operations are rolled back. Returns the error the deploy fails with.
 */
export async function afterFailedDeploy(engine: EngineContext, failed: FailedDeploy): Promise<unknown> {
  const { state, journal, log, options, failure } = failed;
  const stack = state.ref.stackName;
  await state.flush();
  const interrupted = options.signal?.aborted === true;
  await journal.setStatus(interrupted ? 'interrupted' : 'failed');
  await journal.flush();
  log.record({ status: interrupted ? 'UPDATE_INTERRUPTED' : 'UPDATE_FAILED', reason: messageOf(failure) });
  const segment = journal.current;
  if (!segment && options.rollback !== false) {
    // Nothing was touched and no journal can restore the record: it describes what is deployed again.
    restoreGeneration(state, failed.previous);
    await state.save();
    await removeEmptyState(engine, state);
  }
  if (!segment || interrupted || options.rollback === false) {
    await log.flush();
    if (!segment) return failure;
    return withHint(
      failure,
      `State and the rollback journal are saved. cdkd rollback ${stack} reverts this run's changes; or fix the cause and run cdkd deploy again.`,
    );
  }
  const gathered = await gatherMadeFacts(engine, {
    ref: state.ref,
    segments: [segment],
    state: state.document,
    path: 'automatic-rollback',
    services: failed.replay,
  });
  const report = await rollBackSegment({
    state,
    journal,
    segment,
    gathered,
    services: failed.replay,
    knownType: (type) => failed.replay.router.canHandle(type),
    events: engine.events,
    log,
    path: 'automatic-rollback',
    revertFailed: false,
    orphan: new Set(),
    force: false,
  });
  if (report.exitCode !== 1) await removeEmptyState(engine, state);
  const summary =
    report.exitCode === 1
      ? 'The automatic rollback failed too; state and the rollback journal are kept.'
      : report.exitCode === 2
        ? 'Rolled back, but some operations need attention (warnings above; cdkd events lists them).'
        : 'Rolled back: the stack is as it was before this deploy.';
  const hint =
    report.exitCode === 1
      ? `Fix the cause shown above and run cdkd rollback ${stack}, or cdkd deploy --fix-forward to fix forward.`
      : 'Fix the cause and run cdkd deploy again.';
  return withMessage(failure, summary, hint);
}

function withHint(failure: unknown, hint: string): unknown {
  if (!isCdkdError(failure)) return failure;
  return new CdkdError(failure.code, failure.message, {
    hint,
    cause: failure.cause,
    exitCode: failure.exitCode,
  });
}

function withMessage(failure: unknown, summary: string, hint: string): unknown {
  if (!isCdkdError(failure)) return failure;
  // An AWS message usually ends its own sentence.
  const message = /[.!?]$/.test(failure.message) ? failure.message : `${failure.message}.`;
  return new CdkdError(failure.code, `${message} ${summary}`, {
    hint,
    cause: failure.cause,
    exitCode: failure.exitCode,
  });
}

/**
 * A successful deploy ends the journal's life (spec 003): a nested stack keeps
 * its segment until the top-level deploy succeeds; the top level first acts on
 * what failed creates made (its own and its nested stacks'), then deletes the
 * journals, keeping only entries it could not act on. Returns the warnings.
 */
export async function settleJournal(
  engine: EngineContext,
  request: StackRequest,
  state: StackState,
  journal: RunJournal,
): Promise<string[]> {
  if (journal.current) await journal.setStatus('succeeded');
  if (request.isNested) {
    await journal.flush();
    return [];
  }
  return settleTree(engine, request, state, journal, journal.runId);
}

/**
 * What this successful run did in one stack (its nested stacks' segments share the run id):
 * the logical ids it completed, and what its completed operations applied per type.
 */
function runFacts(journal: JournalDocument, runId: string | undefined): SettleInput['run'] {
  if (runId === undefined) return undefined;
  const done = journal.segments
    .filter((segment) => segment.runId === runId)
    .flatMap((segment) => segment.operations)
    .filter((op) => op.status === 'completed');
  const applied = new Map<string, Array<Record<string, unknown>>>();
  for (const op of done) {
    if (op.after) applied.set(op.type, [...(applied.get(op.type) ?? []), op.after.properties]);
  }
  return { runId, completed: new Set(done.map((op) => op.logicalId)), applied };
}

async function settleTree(
  engine: EngineContext,
  stack: StackIdentity,
  state: StackState,
  journal: RunJournal,
  runId: string | undefined,
): Promise<string[]> {
  const run = runFacts(journal.document, runId);
  const services = replayServices(engine, { stack, state });
  const earlier = journal.document.segments.filter((segment) => segment.runId !== run?.runId);
  // A record under a logical id this run created again is this run's, not the earlier create's.
  await reconcileSegments(earlier, state.document, services, {
    trustsRecord: (op) => !run?.completed.has(op.logicalId),
  });
  const unsettled = unsettledInFlight(earlier);
  const gathered = await gatherMadeFacts(engine, {
    ref: state.ref,
    segments: journal.document.segments.filter((segment) => segment.runId !== run?.runId),
    state: state.document,
    path: 'deploy-success',
    services,
  });
  const settled = await settleMadeResources({
    journal: journal.document,
    state: state.document,
    services,
    path: 'deploy-success',
    gathered,
    ...(run ? { run } : {}),
    note: journalNote(engine, stack),
  });
  for (const op of settled.kept) op.keptByDeploy = true;
  const kept = new Set([...settled.kept, ...unsettled.map(({ op }) => op)]);
  journal.document.segments = journal.document.segments
    .map((segment) => ({ ...segment, operations: segment.operations.filter((op) => kept.has(op)) }))
    .filter((segment) => segment.operations.length > 0);
  await journal.persist();
  const warnings = [
    ...settled.warnings,
    ...unsettled.map(
      ({ line }) =>
        `${line}; the journal keeps the entry: check by hand, then run cdkd rollback ${stack.stateName.replaceAll('/', '~')}`,
    ),
  ];
  for (const child of await nestedStacksOf(engine, stack)) {
    const ref = { stackName: child.stateName, region: child.region };
    const opened = await openJournalOrSetAside(engine, ref);
    if (opened.setAside) {
      warnings.push(opened.setAside);
      continue;
    }
    const childState = await StackState.open(engine.backend.store, ref);
    warnings.push(...(await settleTree(engine, child, childState, opened.journal, runId)));
  }
  return warnings;
}
