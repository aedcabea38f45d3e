import { CdkdError, isCdkdError } from '../errors.js';
import type { ReplayServices } from '../rollback/replay-step.js';
import type { StackGeneration } from '../state/documents/journal-document.js';
import type { StateDocument } from '../state/documents/state-document.js';
import type { EventLog } from '../state/event-log.js';
import { rollBackSegment } from './automatic-rollback.js';
import type { EngineContext } from './engine-context.js';
import { settleMadeResources } from './journal-lifetime.js';
import { messageOf } from './resource-executor.js';
import type { RunJournal } from './run-journal.js';
import type { DeployOptions, StackRequest } from './stack-request.js';
import type { StackState } from './stack-state.js';

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

export function replayServices(
  engine: EngineContext,
  request: StackRequest,
  options: DeployOptions,
  state: StackState,
): ReplayServices {
  return {
    state,
    router: engine.routerFor(request, options),
    context: {
      clients: engine.clients,
      accountId: request.accountId,
      region: request.region,
      stackName: request.stackName,
    },
    sendable: engine.sendable(request.region),
    retry: engine.retry,
  };
}

interface FailedDeploy {
  state: StackState;
  journal: RunJournal;
  log: EventLog;
  replay: ReplayServices;
  options: DeployOptions;
  failure: unknown;
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
  if (!segment || interrupted || options.rollback === false) {
    await log.flush();
    if (!segment) return failure;
    return withHint(
      failure,
      `State and the rollback journal are saved. cdkd rollback ${stack} reverts this run's changes; or fix the cause and run cdkd deploy again.`,
    );
  }
  const report = await rollBackSegment({
    state,
    journal,
    segment,
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
      ? `Fix the cause shown above and run cdkd rollback ${stack}, or cdkd deploy to fix forward.`
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
  return new CdkdError(failure.code, `${failure.message}. ${summary}`, {
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
  replay: ReplayServices,
): Promise<string[]> {
  if (journal.current) await journal.setStatus('succeeded');
  if (request.isNested) {
    await journal.flush();
    return [];
  }
  const completed = new Set(
    (journal.current?.operations ?? []).filter((op) => op.status === 'completed').map((op) => op.logicalId),
  );
  const settled = await settleMadeResources({
    journal: journal.document,
    state: state.document,
    services: replay,
    path: 'deploy-success',
    ...(journal.runId ? { run: { runId: journal.runId, completed } } : {}),
  });
  const kept = new Set(settled.kept);
  journal.document.segments = journal.document.segments
    .map((segment) => ({ ...segment, operations: segment.operations.filter((op) => kept.has(op)) }))
    .filter((segment) => segment.operations.length > 0);
  await journal.persist();
  const children = await settleChildJournals(engine, state.ref, replay);
  return [...settled.warnings, ...children];
}

async function settleChildJournals(
  engine: EngineContext,
  parent: { stackName: string; region: string },
  replay: ReplayServices,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const child of await engine.backend.store.listChildren(parent)) {
    const journal = await engine.backend.journals.read(child).catch((error: unknown) => {
      warnings.push(
        `The rollback journal of ${child.stackName} cannot be read and is removed: ${messageOf(error)}`,
      );
      return undefined;
    });
    const childState = await engine.backend.store.read(child);
    if (journal && childState) {
      const settled = await settleMadeResources({
        journal: journal.document,
        state: childState.document,
        services: replay,
        path: 'deploy-success',
      });
      warnings.push(...settled.warnings);
    }
    await engine.backend.journals.remove(child);
    warnings.push(...(await settleChildJournals(engine, child, replay)));
  }
  return warnings;
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
