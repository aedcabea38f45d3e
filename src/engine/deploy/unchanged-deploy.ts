import type { EngineContext } from '../engine-context.js';
import type { StackDeployResult } from './deploy-result.js';
import { planStack } from '../planning/index.js';
import { liveAttributesFor } from '../planning/index.js';
import { recordRun, runRecordText } from './stack-record.js';
import type { DeployOptions, StackRequest } from '../stack-request.js';
import { StackState } from '../../stack-state/index.js';
import { stateResolver } from '../planning/index.js';

/**
 * A redeploy that would change nothing answers from reads alone, without taking the lock:
 * every resource plans as a no-op whose hash is already recorded, the stack record (outputs,
 * imports, template, parameters, tags) would be written unchanged, nothing waits as a
 * pending delete or in a rollback journal of the stack or its nested stacks, and no other
 * process holds the lock. Anything else returns undefined and the deploy takes the lock and
 * runs as usual, reading state again under it. A nested stack deployed by its parent
 * always takes the locked path.
 */
export async function unchangedDeploy(
  engine: EngineContext,
  request: StackRequest,
  options: DeployOptions,
): Promise<StackDeployResult | undefined> {
  if (request.isNested) return undefined;
  const ref = { stackName: request.stateName, region: request.region };
  const state = await StackState.open(engine.backend.store, ref);
  if (state.isNew || state.document.pendingDeletes.length > 0) return undefined;
  // Only a plan of no-ops answers here: the probes, the data-loss question and the name
  // lookups a change needs wait for the locked path.
  const planned = await planStack(engine, request, state, {
    ...options,
    dryRun: true,
    preflight: true,
    forceStatefulRecreation: true,
  });
  const settled = planned.plan.operations.every(
    (op) =>
      op.kind === 'no-op' &&
      (op.propertyHash === undefined || state.record(op.logicalId)?.propertyHash === op.propertyHash),
  );
  if (!settled) return undefined;
  const before = runRecordText(state);
  const resolver = stateResolver(state, engine.exportsIn(request.region), {
    pending: false,
    imported: planned.imported,
  });
  const outputs = await recordRun(
    state,
    request,
    planned,
    resolver,
    liveAttributesFor(engine, state, request, options),
  );
  if (runRecordText(state) !== before) return undefined;
  // Its nested stacks' journals too: a successful parent deploy settles them.
  if ((await engine.backend.journals.listTree(ref)).length > 0) return undefined;
  if ((await engine.backend.locks.find(ref)).kind !== 'absent') return undefined;

  engine.events({ kind: 'stack', stack: request.stackName, status: 'started', total: 0 });
  engine.exportsIn(request.region).update(state.document);
  engine.events({ kind: 'stack', stack: request.stackName, status: 'no-changes' });
  const result = unchangedResult(request, planned.plan, state);
  if (outputs.failed.length === 0) return result;
  return { ...result, outputs: outputs.resolved, failedOutputs: outputs.failed };
}

/** A deploy that wrote nothing (a no-op, or a dry run): its plan and the outputs state already holds. */
export function unchangedResult(
  request: StackRequest,
  plan: StackDeployResult['plan'],
  state: StackState,
): StackDeployResult {
  return {
    stackName: request.stackName,
    plan,
    outputs: state.document.outputs,
    changed: false,
    unaddressed: [],
  };
}
