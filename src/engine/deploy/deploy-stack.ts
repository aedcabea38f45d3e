import { CdkdError, messageOf } from '../../errors.js';
import type { PlannedOperation } from '../../plan/index.js';
import type { StackDeployResult } from './deploy-result.js';
import { FAIL_FAST_SCHEDULE, RETRY_SCHEDULE } from '../../state/lock-schedule.js';
import { walkDag, type WalkOutcome } from '../../dag/index.js';
import type { EngineContext } from '../engine-context.js';
import { refuseChangedExportsInUse } from '../planning/index.js';
import { holdOldCopies } from './held-copies.js';
import { liveAttributesFor } from '../planning/index.js';
import { declaredExportValues, outputChanges } from '../planning/index.js';
import { planStack } from '../planning/index.js';
import { plannedExportValues } from '../planning/index.js';
import { ResourceExecutor } from '../execute/index.js';
import type { DeployOptions, StackRequest } from '../stack-request.js';
import { StackState } from '../../stack-state/index.js';
import { recordGeneration, recordRun } from './stack-record.js';
import { recordDeployedGeneration } from './generation-record.js';
import { unchangedResult } from './unchanged-deploy.js';
import type { DeployPhase } from '../events.js';
import { reviewValues, stateResolver } from '../planning/index.js';
import { securityChanges } from '../../plan/index.js';
import { afterFailedDeploy, generationOf, settleJournal } from '../journal/index.js';
import { replayServices } from '../journal/index.js';
import type { RunJournal } from '../journal/index.js';
import { openJournalOrSetAside } from '../journal/index.js';
import { refuseAfterFailedRollback } from '../journal/index.js';
import { settleStaleRecords } from '../journal/index.js';
import { recordingResourceEvents, RetryTimes } from './resource-event-record.js';
import { refuseMovedOperations, refuseMovedState } from './saved-plan-check.js';
import { deploySchedule, recentEvents } from './deploy-schedule.js';

/**
 * A dry run: plans from reads alone, no lock and no write. The stack's new exports count as
 * made for the stacks planned after it in the run, their values known after deploy.
 */
export async function dryRunDeploy(
  engine: EngineContext,
  request: StackRequest,
  options: DeployOptions,
): Promise<StackDeployResult> {
  const ref = { stackName: request.stateName, region: request.region };
  // An unreadable journal is the deploy's to set aside, not the dry run's to refuse over.
  const journal = await engine.backend.journals.read(ref).catch(() => undefined);
  refuseAfterFailedRollback(request.stateName, journal?.document, options.fixForward === true);
  const state = await StackState.open(engine.backend.store, ref);
  await settleStaleRecords(engine, request, state, { persist: false });
  const planned = await planStack(engine, request, state, options);
  const exports = engine.exportsIn(request.region);
  const resolver = stateResolver(state, exports, { pending: true });
  const outputs = await outputChanges(
    planned.masked,
    resolver,
    liveAttributesFor(engine, state, request, options),
    state.document.outputs,
  );
  // The later stacks of a shown dry run plan as if this one had deployed; a preflight's
  // stacks each plan against what is deployed now.
  if (!options.preflight)
    exports.planned(state.document.stackName, plannedExportValues(planned.masked, resolver));
  const values = reviewValues(planned.plan, planned.masked, state, exports);
  // A preflight shows nothing: it reads the security changes only for --require-approval.
  const reviewed = !options.preflight || (options.requireApproval ?? 'never') !== 'never';
  return {
    ...unchangedResult(request, planned.plan, state),
    stateEtag: state.etag ?? null,
    stateful: planned.stateful,
    values,
    ...(reviewed && { security: await securityChanges(values) }),
    ...(outputs.changes.length > 0 ? { outputChanges: outputs.changes } : {}),
    ...(outputs.failed.length > 0 ? { failedOutputs: outputs.failed } : {}),
  };
}

/**
 * Deploys one stack the no-op check could not answer: lock, plan, run the deploy phase as a
 * DAG, clean up (removed resources, old copies of replaced ones), then outputs and the stack
 * record. State is saved after every resource; a failure stops new work, lets in-flight
 * operations finish, saves state and reports exit 1.
 */
export async function lockedDeploy(
  engine: EngineContext,
  request: StackRequest,
  options: DeployOptions & { runId: string },
  phase: (phase: DeployPhase) => void,
): Promise<StackDeployResult> {
  const runId = options.runId;
  const ref = { stackName: request.stateName, region: request.region };
  const lock = await engine.backend.locks.acquire(ref, {
    operation: 'deploy',
    schedule: request.isNested ? FAIL_FAST_SCHEDULE : RETRY_SCHEDULE,
    onLost: (message) => engine.events({ kind: 'warning', stack: request.stackName, message }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  phase('lock');
  // Read beside the state and the plan, so the ETA costs the deploy no wait.
  const history = options.estimate ? recentEvents(engine, ref) : undefined;
  try {
    const state = await StackState.open(engine.backend.store, ref);
    const saved = request.isNested ? undefined : options.savedPlan;
    if (saved) refuseMovedState(saved, request.stackName, state.etag);
    // Under a saved plan, records are settled in memory only until the plan is proven the
    // same (a refusal writes nothing); the first save below stores them.
    await settleStaleRecords(engine, request, state, { persist: !saved });
    phase('state read');
    const before = JSON.stringify(state.document);
    const firstDeploy = state.document.template === undefined;
    const planned = await planStack(engine, request, state, options);
    if (saved) refuseMovedOperations(saved, request.stackName, planned.plan.operations);
    phase('plan');

    const total = planned.plan.operations.filter((op) => op.kind !== 'no-op').length;
    engine.events({
      kind: 'stack',
      stack: request.stackName,
      status: 'started',
      total,
      ...(firstDeploy ? { firstDeploy: true } : {}),
      ...(history &&
        total > 0 && {
          schedule: await deploySchedule(planned.plan.operations, history, options.concurrency),
        }),
    });
    const previous = generationOf(state.document);
    const { journal, setAside } = await openJournalOrSetAside(engine, ref, {
      runId,
      // A rollback re-creates under the names this run would have sent (spec 001).
      flags: { prefixUserSuppliedNames: options.prefixUserSuppliedNames === true },
      previous,
    });
    if (setAside) engine.events({ kind: 'warning', stack: request.stackName, message: setAside });
    refuseAfterFailedRollback(request.stateName, journal.document, options.fixForward === true);
    // Spec 004: the stack record describes the attempt before any resource is touched; the
    // journal keeps the generation a rollback returns to.
    if (total > 0) {
      recordGeneration(state, request, planned);
      await state.save();
    }
    const log = engine.eventLog(ref, runId);
    const { imported } = planned;
    const exportIndex = engine.exportsIn(request.region);
    const resolver = stateResolver(state, exportIndex, { pending: false, imported });
    const live = liveAttributesFor(engine, state, request, options);
    const replay = replayServices(engine, { stack: request, state, options });
    const retries = new RetryTimes();
    const executor = new ResourceExecutor({
      ...replay,
      retry: retries.wrap(replay.retry),
      evaluation: {
        prepared: planned.prepared,
        masked: planned.masked,
        resolver: stateResolver(state, exportIndex, { pending: false, imported, reveal: true }),
        maskedResolver: resolver,
        live,
      },
      // An interrupt stops new operations (the walk below), never one in flight: a call cut
      // short may still have made its resource, which neither state nor the journal could name.
      events: recordingResourceEvents(engine.events, log, retries),
      observer: journal,
      replace: options.replace === true,
      forceStatefulRecreation: options.forceStatefulRecreation === true,
      registryAnswers: (types) => engine.registrySchemas.forTypes(request, types),
    });

    const graph = planned.prepared.dependencyGraph();
    const priority = (id: string) => (graph.has(id) ? graph.longestRemainingPath(id) : 0);
    const deployOps = planned.plan.operations.filter((op) => op.phase === 'deploy');
    try {
      await runPhase(state, deployOps, executor, { ...options, priority });
      // A deploy is done once what it created is usable (a Lambda function Active), as on CloudFormation.
      await executor.settleCreated();
      // An export reading a resource this deploy recreated has its value only now, before the old copies go.
      // Except those its importers follow later in the run (planned.moving): the plan allowed them.
      const exports = engine.exportsIn(request.region);
      const stackName = state.document.stackName;
      const followed = new Set(planned.moving.map((entry) => entry.exportName));
      refuseChangedExportsInUse(
        stackName,
        exports,
        await declaredExportValues(
          planned.masked,
          resolver,
          (name) => exports.isImportedElsewhere(name, stackName) && !followed.has(name),
          live,
        ),
      );
    } catch (failure) {
      // Spec 004: a failed deploy under --no-rollback keeps the attempted template and parameters.
      if (options.rollback === false) {
        recordGeneration(state, request, planned);
        await state.save();
      }
      throw await afterFailedDeploy(engine, { state, journal, log, replay, options, failure, previous });
    }
    const cleanupOps = planned.plan.operations.filter((op) => op.phase === 'cleanup');
    await runPhase(state, cleanupOps, executor, { ...options, priority: () => 0 });
    const held = await holdOldCopies(engine, request, state, planned.moving, options.crossStack);
    const oldCopiesLeft = await deletePending(state, executor, journal, held);
    for (const message of oldCopiesLeft)
      engine.events({ kind: 'warning', stack: request.stackName, message });
    phase('execution');

    const outputs = await recordRun(state, request, planned, resolver, live);
    const changed = JSON.stringify(state.document) !== before;
    if (changed) await state.save();
    await state.flush();
    if (changed) await recordDeployedGeneration(engine, request, state.document, planned.plan);
    phase('outputs');
    const unaddressed = [
      ...(setAside ? [setAside] : []),
      ...oldCopiesLeft,
      ...(await settleJournal(engine, request, state, journal)),
    ];
    phase('journal');
    engine.exportsIn(request.region).update(state.document);
    options.crossStack?.moved(state.document.stackName);
    engine.events({ kind: 'stack', stack: request.stackName, status: changed ? 'succeeded' : 'no-changes' });
    // A deploy that changed nothing writes nothing, events included.
    if (changed) log.record({ status: firstDeploy ? 'CREATE_COMPLETE' : 'UPDATE_COMPLETE' });
    await log.flush();
    return {
      stackName: request.stackName,
      plan: planned.plan,
      outputs: outputs.resolved,
      changed,
      unaddressed,
      ...(outputs.failed.length > 0 ? { failedOutputs: outputs.failed } : {}),
    };
  } catch (error) {
    engine.events({ kind: 'stack', stack: request.stackName, status: 'failed', message: messageOf(error) });
    throw await lock.releaseAfter(error);
  } finally {
    await lock.release();
    phase('unlock');
  }
}

async function runPhase(
  state: StackState,
  operations: PlannedOperation[],
  executor: ResourceExecutor,
  options: DeployOptions & { priority: (id: string) => number },
): Promise<void> {
  const ids = new Set(operations.map((op) => op.logicalId));
  const byId = new Map(operations.map((op) => [op.logicalId, op]));
  const outcome = await walkDag(
    operations.map((op) => ({ id: op.logicalId, dependsOn: op.dependsOn.filter((dep) => ids.has(dep)) })),
    (id, release) => executor.run(byId.get(id)!, release),
    {
      concurrency: options.concurrency,
      priority: options.priority,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  await state.flush();
  if (outcome.failed.length > 0 || outcome.notStarted.length > 0) throw deployFailed(state, outcome);
}

/**
 * Old copies of replaced resources, this run's and any an earlier run could not delete, except
 * those `held` for the other stacks still reading them (held-copies.ts). A delete AWS refuses
 * (a namespace still holding tables, spec 002) is warned about and the deploy carries on: the
 * copy stays in state as a pending delete, so it is still tracked and the next deploy tries
 * again. Returns the warnings.
 */
async function deletePending(
  state: StackState,
  executor: ResourceExecutor,
  journal: RunJournal,
  held: ReadonlySet<string>,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const pending of [...state.document.pendingDeletes]) {
    if (held.has(pending.record.physicalId)) continue;
    try {
      await executor.deleteRecorded(pending.logicalId, pending.record);
    } catch (error) {
      warnings.push(
        `Failed to delete old resource ${pending.record.physicalId} (${pending.record.type}) that the replacement of ${pending.logicalId} left: ${messageOf(error)}. It stays in state as a pending delete and the next cdkd deploy tries again; move or delete what it holds, or delete it by hand.`,
      );
      continue;
    }
    await state.removePendingDelete(pending.record.physicalId, pending.record.type);
    await journal.markOldDeleted(pending.logicalId, pending.record.physicalId);
  }
  return warnings;
}

function deployFailed(state: StackState, outcome: WalkOutcome): CdkdError {
  const failures = outcome.failed.map((failure) => messageOf(failure.error));
  const interrupted = outcome.failed.length === 0;
  const summary = interrupted ? 'was interrupted' : `failed: ${failures.join('; ')}`;
  return new CdkdError('DEPLOY_FAILED', `Deploy of ${state.ref.stackName} ${summary}`, {
    hint: `State is saved (${Object.keys(state.document.resources).length} resources recorded); fix the cause and run cdkd deploy again.`,
    cause: outcome.failed[0]?.error,
  });
}
