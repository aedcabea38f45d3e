import {
  checkStatefulReplacements,
  emptinessProbeTargets,
  needsDataLossConfirmation,
  recreateRowLines,
  type EmptinessVerdict,
  type Plan,
  type RecreateRow,
  type StatefulVerdict,
} from '../plan/index.js';
import type { ProbeResult, ProbeTarget } from '../providers/emptiness/index.js';
import type { EventSink } from './events.js';
import type { DeployOptions, StackRequest } from './stack-request.js';
import type { StackState } from './stack-state.js';

/** Runs one pre-flight emptiness probe in the stack's deploy region. */
export type EmptinessProber = (target: ProbeTarget, region: string) => Promise<ProbeResult>;

export interface PreflightServices {
  probeEmptiness: EmptinessProber;
  events: EventSink;
}

/**
 * Spec 002's stateful guard at pre-flight, before anything is touched: probes the buckets
 * and log groups about to be recreated (unless --force-stateful-recreation skips the
 * probes), refuses what would lose data without the flag, then asks before a recreate that
 * loses data for certain. A bucket whose probe failed proceeds, its row given as a warning.
 */
export async function statefulPreflight(
  services: PreflightServices,
  request: StackRequest,
  state: StackState,
  plan: Plan,
  options: DeployOptions,
): Promise<StatefulVerdict[]> {
  const recorded = state.document.resources;
  const forceStatefulRecreation = options.forceStatefulRecreation ?? false;
  const warn = (message: string) => services.events({ kind: 'warning', stack: request.stackName, message });
  const emptiness: Record<string, EmptinessVerdict> = {};
  if (!forceStatefulRecreation) {
    const targets = emptinessProbeTargets(plan.operations, recorded);
    await Promise.all(
      targets.map(async (target) => {
        const probeTarget = {
          ...target,
          recordedRegion: recorded[target.logicalId]?.region ?? state.document.region,
        };
        const result = await services.probeEmptiness(probeTarget, request.region);
        emptiness[target.logicalId] = result.verdict;
        if (result.warning) warn(result.warning);
      }),
    );
  }
  const verdicts = checkStatefulReplacements({
    operations: plan.operations,
    recorded,
    forceStatefulRecreation,
    emptiness,
  });
  if (options.dryRun) return verdicts;
  const rows = recreateRows(plan, verdicts);
  if (needsDataLossConfirmation(rows)) {
    await options.confirmDataLoss?.({ stackName: request.stackName, rows });
  } else {
    for (const row of rows.filter((r) => r.outcome === 'emptiness-unknown'))
      warn(recreateRowLines(row).join('\n').trim());
  }
  return verdicts;
}

/** Every recreated resource with its guard verdict, in plan order, for the prompt. */
function recreateRows(plan: Plan, verdicts: readonly StatefulVerdict[]): RecreateRow[] {
  const reasons = new Map(plan.operations.map((op) => [op.logicalId, op.reason]));
  return verdicts.map((verdict) => ({
    logicalId: verdict.logicalId,
    type: verdict.type,
    outcome: verdict.outcome,
    reason:
      verdict.readerOf.length > 0
        ? `replaced if the id of ${verdict.readerOf.join(', ')} changes`
        : (reasons.get(verdict.logicalId) ?? 'replaced'),
  }));
}
