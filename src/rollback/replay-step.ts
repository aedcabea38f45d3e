import { isCdkdError, messageOf } from '../errors.js';
import type { MadeDelete } from '../providers/index.js';
import { MASK } from '../template/index.js';
import { proveIdentity } from '../rollback-decisions/index.js';
import { baselineProperties, RedactedBaseline } from './redacted-baseline.js';
import { deleteRecorded } from '../provider-calls/index.js';
import type { ReplayServices } from './replay-services.js';
import { madeAndLeft, reverseReplace } from './reverse-replacement.js';
import type { RollbackStep } from '../rollback-decisions/index.js';
import { succeeded, type StepOutcome } from './step-outcome.js';
import { maskedSecrets, maskingErrors } from '../stack-state/index.js';

export type { ReplayServices } from './replay-services.js';
export type { StepOutcome } from './step-outcome.js';

/**
 * Carries out one rollback step. State is changed only after AWS answered, in
 * an order that keeps every live resource named by state or by the journal.
 */
export async function replayStep(step: RollbackStep, services: ReplayServices): Promise<StepOutcome> {
  try {
    return await run(step, services);
  } catch (error) {
    const code =
      error instanceof RedactedBaseline
        ? 'ROLLBACK_REDACTED_BASELINE'
        : isCdkdError(error)
          ? error.code
          : undefined;
    const left = madeAndLeft(error);
    return {
      logicalId: step.logicalId,
      status: 'failed',
      warn: false,
      message: messageOf(error),
      ...(code ? { code } : {}),
      ...(left ? { survivor: left.survivor, warnings: [`${step.logicalId}: ${left.message}`] } : {}),
    };
  }
}

async function run(step: RollbackStep, services: ReplayServices): Promise<StepOutcome> {
  switch (step.kind) {
    case 'skip':
      return { logicalId: step.logicalId, status: 'skipped', warn: step.warn, message: step.reason };
    case 'refuse':
      return {
        logicalId: step.logicalId,
        status: 'failed',
        warn: false,
        message: step.reason,
        code: step.code,
      };
    case 'leave':
      return {
        logicalId: step.logicalId,
        status: 'skipped',
        warn: false,
        message: `left for the nested stack's own rollback: ${step.command}`,
      };
    case 'discard':
      return { logicalId: step.logicalId, status: 'skipped', warn: false, message: step.reason };
    case 'nested':
      return services.replayNested(step.logicalId, step.runId);
    case 'delete':
      return rollBackCreate(step, services);
    case 'revert':
      return revert(step, services);
    case 'delete-made':
      return deleteMade(step, services);
    case 'reverse-replace':
      return reverseReplace(step, services);
  }
}

async function rollBackCreate(
  step: Extract<RollbackStep, { kind: 'delete' }>,
  services: ReplayServices,
): Promise<StepOutcome> {
  const { record } = step;
  if (step.retain) {
    await services.state.removeRecord(step.logicalId);
    return succeeded(
      step.logicalId,
      `kept in AWS by its DeletionPolicy ${record.deletionPolicy ?? ''}; no longer tracked`.trim(),
      {
        warn: true,
        survivor: { physicalId: record.physicalId, managedBy: record.provisionedBy },
      },
    );
  }
  await deleteRecorded(services, step.logicalId, record);
  await services.state.removeRecord(step.logicalId);
  return succeeded(step.logicalId, `deleted ${record.physicalId}`);
}

async function revert(
  step: Extract<RollbackStep, { kind: 'revert' }>,
  services: ReplayServices,
): Promise<StepOutcome> {
  const { before, current } = step;
  const provider = await services.router.providerFor(current.type, current.provisionedBy);
  const properties = await baselineProperties(before.properties, () =>
    provider.read(
      {
        logicalId: step.logicalId,
        type: current.type,
        physicalId: current.physicalId,
        properties: current.properties,
      },
      services.context,
    ),
  );
  const sent = await services.sendable(properties.values);
  const secretsSent = maskedSecrets(properties.values, before.properties);
  const result = await services.retry(
    step.logicalId,
    maskingErrors(secretsSent, () =>
      provider.update(
        {
          logicalId: step.logicalId,
          type: current.type,
          physicalId: current.physicalId,
          properties: sent,
          // A failed update left state's record at its pre-deploy properties: diffing against them sends nothing.
          previousProperties: step.attempted ?? current.properties,
        },
        services.context,
      ),
    ),
  );
  const reverted = {
    // What AWS echoes of a masked value kept as live is masked as the properties are.
    ...services.state.withAnswer(step.logicalId, before, {
      ...result,
      secretsSent,
    }),
    provisionedBy: current.provisionedBy,
  };
  if (result.oldNeedsDelete) {
    // A handler answered another id (a custom resource): the one it answered is live again, so it
    // is no longer a pending delete, and the copy the deploy made becomes one (deleted at the next cleanup).
    await services.state.removePendingDelete(result.physicalId, current.type);
    await services.state.replaceRecord(step.logicalId, reverted, current);
  } else {
    await services.state.setRecord(step.logicalId, reverted);
  }
  const kept =
    properties.keptAsLive.length > 0
      ? `; ${properties.keptAsLive.join(', ')} left as AWS holds them (NoEcho)`
      : '';
  return succeeded(step.logicalId, `reverted to its pre-deploy properties${kept}`);
}

async function deleteMade(
  step: Extract<RollbackStep, { kind: 'delete-made' }>,
  services: ReplayServices,
): Promise<StepOutcome> {
  const request = {
    logicalId: step.logicalId,
    type: step.type,
    physicalId: step.physicalId,
    properties: step.properties,
  };
  const provider = await services.router.providerFor(step.type, step.provisionedBy);
  if (step.needsIdentityProof) {
    const live = await provider.read(request, services.context).then(
      (resource) => (resource ? (resource.creationIdentity ?? {}) : ('gone' as const)),
      () => 'unreadable' as const,
    );
    const proof = proveIdentity(step.creationIdentity, live, step.type);
    if (proof === 'gone')
      return succeeded(step.logicalId, `${step.physicalId}, which a failed create made, is already gone`);
    if (proof !== 'same') {
      return {
        logicalId: step.logicalId,
        status: 'skipped',
        warn: true,
        message: `${step.physicalId}, which a failed create made, cannot be proven to be that resource (${proof}); not deleted, delete it by hand if it is not in use`,
      };
    }
  }
  if (step.retain) {
    // No survivor id: a rollback-orphan record would let a later deploy re-adopt what state never held (spec 000).
    return succeeded(
      step.logicalId,
      `${step.physicalId}, which a failed create made, is kept in AWS by its DeletionPolicy; it was never in state`,
      { warn: true },
    );
  }
  const deleted = `deleted ${step.physicalId}, which the failed create made`;
  if (!provider.deleteMade) {
    await services.retry(step.logicalId, () => provider.delete(request, services.context));
    return succeeded(step.logicalId, deleted);
  }
  // Settled with a warning when the document cannot be compared; any other failure fails the delete.
  const unresolvable = new Set(['SECRET_NOT_FOUND', 'SECRET_KEY_NOT_FOUND', 'SSM_PARAMETER_NOT_FOUND']);
  const made: MadeDelete = {
    ...(step.creationIdentity ? { creationIdentity: step.creationIdentity } : {}),
    ...(step.appliedByThisDeploy ? { appliedByThisDeploy: step.appliedByThisDeploy } : {}),
    attempted: async () => {
      if (JSON.stringify(step.properties).includes(MASK)) {
        return { unusable: 'the attempted document is masked (NoEcho)' };
      }
      try {
        return { properties: await services.sendable(step.properties) };
      } catch (error) {
        if (isCdkdError(error) && unresolvable.has(error.code)) return { unusable: error.message };
        throw error;
      }
    },
  };
  const { left } = await services.retry(step.logicalId, () =>
    provider.deleteMade!(request, made, services.context),
  );
  if (left.length === 0) return succeeded(step.logicalId, deleted);
  const named = left.map(({ target, reason }) => `${target} (${reason})`).join('; ');
  return succeeded(
    step.logicalId,
    `${step.physicalId}, which the failed create made, was undone only where it still held; left as is, check by hand: ${named}`,
    { warn: true },
  );
}
