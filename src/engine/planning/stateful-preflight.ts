import { ownProtectionRefusal, type EmptinessVerdict } from '../../resource-types/index.js';
import {
  checkStatefulReplacements,
  emptinessProbeTargets,
  needsDataLossConfirmation,
  recreateRowLines,
  routeLabel,
  type DesiredResource,
  type Plan,
  type RecreateRow,
  type StatefulVerdict,
} from '../../plan/index.js';
import type { EmptinessProber } from '../engine-context.js';
import { CdkdError } from '../../errors.js';
import { ioQuestion, type CommandName, type IoHost } from '../../messages/index.js';
import type { EventSink } from '../events.js';
import { importReaderRows, type FollowingImportReader } from './import-readers.js';
import type { DataLossConfirmation, DeployOptions, StackRequest } from '../stack-request.js';
import type { StackState } from '../../stack-state/index.js';

export interface PreflightServices {
  probeEmptiness: EmptinessProber;
  events: EventSink;
  io: IoHost;
  command: CommandName;
}

/** The stack being planned: its request, recorded state, plan and desired resources. */
export interface PreflightStack {
  request: StackRequest;
  state: StackState;
  plan: Plan;
  desired: readonly DesiredResource[];
  /** Resources of later stacks of the run that follow a recreated target through an export. */
  importReaders?: readonly FollowingImportReader[];
}

/**
 * Spec 002's stateful guard at pre-flight, before anything is touched: probes the buckets
 * and log groups about to be recreated (unless --force-stateful-recreation skips the
 * probes), refuses what would lose data without the flag, then asks before a recreate that
 * loses data for certain. A bucket whose probe failed proceeds, its row given as a warning.
 */
export async function statefulPreflight(
  services: PreflightServices,
  stack: PreflightStack,
  options: DeployOptions,
): Promise<StatefulVerdict[]> {
  const { request, state, plan } = stack;
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
  refuseProtectedReplacements(stack);
  if (options.dryRun) return verdicts;
  const rows = [
    ...recreateRows(plan, verdicts),
    ...importReaderRows(stack.importReaders ?? [], forceStatefulRecreation),
  ];
  // A --recreate-via-* destroys a resource on purpose: it is always asked, data or not.
  const recreatesOnRequest = plan.operations.some((op) => op.kind === 'replace' && op.recreateVia);
  if (needsDataLossConfirmation(rows) || recreatesOnRequest) {
    await confirmDataLoss(services, { stackName: request.stackName, rows });
  } else {
    for (const row of rows.filter((r) => r.outcome === 'emptiness-unknown'))
      warn(recreateRowLines(row).join('\n').trim());
  }
  return verdicts;
}

/**
 * Asks the IO host before a recreate that loses data; a host that cannot ask takes the flag as
 * the consent. A "no" stops the deploy with nothing touched.
 */
async function confirmDataLoss(services: PreflightServices, data: DataLossConfirmation): Promise<void> {
  const question = ioQuestion(
    services.command,
    'CDKD_Q2100',
    `Deploy ${data.stackName}, destroying and re-creating the resources listed?`,
    data,
    true,
  );
  if (!(await services.io.ask(question))) throw new CdkdError('CANCELLED', 'Cancelled; nothing was changed.');
}

/** Spec 002: the six types whose replacement refuses on its own protection property. */
function refuseProtectedReplacements({ plan, state, desired }: PreflightStack): void {
  const desiredById = new Map(desired.map((d) => [d.logicalId, d.properties]));
  for (const op of plan.operations.filter((o) => o.kind === 'replace')) {
    const record = state.document.resources[op.logicalId];
    if (!record) continue;
    const refusal = ownProtectionRefusal({
      logicalId: op.logicalId,
      type: record.type,
      physicalId: record.physicalId,
      recorded: record.properties,
      desired: desiredById.get(op.logicalId),
      ...(op.updateReplacePolicy !== undefined && { updateReplacePolicy: op.updateReplacePolicy }),
    });
    if (refusal) throw refusal;
  }
}

/** Every recreated resource with its guard verdict, in plan order, for the prompt. */
function recreateRows(plan: Plan, verdicts: readonly StatefulVerdict[]): RecreateRow[] {
  const ops = new Map(plan.operations.map((op) => [op.logicalId, op]));
  return verdicts.map((verdict) => {
    const op = ops.get(verdict.logicalId);
    return {
      logicalId: verdict.logicalId,
      type: verdict.type,
      outcome: verdict.outcome,
      ...(verdict.readerOf.length > 0 && { readerOf: verdict.readerOf }),
      reason:
        verdict.readerOf.length > 0
          ? `replaced if the id of ${verdict.readerOf.join(', ')} changes`
          : (op?.reason ?? 'replaced'),
      ...(op?.recreateVia && op.recreateFrom && { route: routeLabel(op.recreateFrom, op.recreateVia) }),
    };
  });
}
