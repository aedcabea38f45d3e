import { randomUUID } from 'node:crypto';
import { classifyAwsError } from '../aws/error-class.js';
import { CdkdError, isCdkdError, messageOf } from '../errors.js';
import { systemClock } from '../providers/clock.js';
import { ResourceMadeError, type CreateResult } from '../providers/provider.js';
import { prefixedNameProperty } from '../providers/user-supplied-names.js';
import { createAttempts } from '../providers/ambiguous-create.js';
import type { ResourceRecord } from '../state/index.js';
import { keepsOnRollbackOfCreate } from '../template/index.js';
import {
  nameCollisionMessage,
  nameHeldByNewCopyMessage,
  newResourceHoldsName,
  retainedHolderMessage,
} from '../rollback-decisions/index.js';
import { nameProperty, readPath } from '../resource-types/index.js';
import { recreateName, type RecreateName } from '../rollback-decisions/index.js';
import { baselineProperties } from './redacted-baseline.js';
import { deleteRecorded } from '../provider-calls/index.js';
import type { ReplayServices } from './replay-services.js';
import type { RollbackStep } from '../rollback-decisions/index.js';
import { succeeded, type StepOutcome } from './step-outcome.js';

/**
 * Undoes a replacement. A live old copy (still pending deletion, or kept by
 * UpdateReplacePolicy: Retain) is re-adopted; a deleted one is re-created from
 * its journaled properties. The new copy is deleted unless it declares
 * UpdateReplacePolicy: Retain, in which case it survives, untracked.
 */
export async function reverseReplace(
  step: Extract<RollbackStep, { kind: 'reverse-replace' }>,
  services: ReplayServices,
): Promise<StepOutcome> {
  const { before, current } = step;
  const deleteNew = async (): Promise<StepOutcome['survivor']> => {
    if (!current) return undefined;
    if (step.keepNew) return { physicalId: current.physicalId, managedBy: current.provisionedBy };
    await deleteRecorded(services, step.logicalId, current);
    return undefined;
  };
  if (step.old !== 'deleted' && (await oldCopyGone(step, services))) {
    // A stop between a cleanup delete and its state save leaves a gone copy listed: re-create it instead.
    if (step.old === 'pending') await services.state.removePendingDelete(before.physicalId, before.type);
    return reverseReplace({ ...step, old: 'deleted' }, services);
  }
  if (step.old !== 'deleted') {
    // New copy first: should its delete fail, state still names it and the old copy stays tracked or journaled.
    const survivor = await deleteNew();
    await services.state.setRecord(step.logicalId, before);
    if (step.old === 'pending') await services.state.removePendingDelete(before.physicalId, before.type);
    return outcomeOf(step, `re-adopted ${before.physicalId}`, survivor);
  }
  const name = recreateNameOf(before, services);
  if (step.order === 'delete-first') {
    // A masked old value (NoEcho) fails before anything is deleted: there is no live resource to read it from.
    await baselineProperties(before.properties, undefined);
    await deleteNew();
    await services.state.removeRecord(step.logicalId);
    try {
      const recreated = await recreate(step.logicalId, before, services, name);
      await recordRecreated(step.logicalId, recreated, services);
    } catch (error) {
      throw new Error(
        `the new copy was deleted, but re-creating the old ${before.type} failed, so the resource is absent: ${messageOf(error)}. Run cdkd deploy --fix-forward to fix it forward.`,
        { cause: error },
      );
    }
    return outcomeOf(step, `re-created the old resource`, undefined, name);
  }
  let recreated: ResourceRecord;
  try {
    recreated = await recreate(step.logicalId, before, services, name);
  } catch (error) {
    if (!isNameCollision(error)) throw error;
    return recreateAfterFreeingName(step, services, error, name);
  }
  await recordRecreated(step.logicalId, recreated, services);
  if (current && recreated.type === current.type && recreated.physicalId === current.physicalId) {
    // The service handed back the live new copy (SQS and SNS return what holds the name):
    // deleting "the new copy" would delete what state now names. Spec 003: exit 2, a reason only.
    return {
      logicalId: step.logicalId,
      status: 'succeeded',
      warn: true,
      message: `the re-create returned the live new resource ${current.physicalId}, so the replacement was not fully reversed: it keeps the new copy's properties; run cdkd deploy with the previous template to put them back`,
    };
  }
  // Both copies exist now: the old one is recorded, the new one goes.
  const done = `re-created the old resource as ${recreated.physicalId}`;
  if (!current) return outcomeOf(step, done, undefined, name);
  try {
    return outcomeOf(step, done, await deleteNew(), name);
  } catch (error) {
    // State already names the old copy: the new one is a survivor to report (spec 003), not a failed step.
    return succeeded(
      step.logicalId,
      `${done}; deleting the new copy ${current.physicalId} failed (${messageOf(error)}): it is no longer tracked, delete it by hand`,
      { warn: true, survivor: { physicalId: current.physicalId, managedBy: current.provisionedBy } },
    );
  }
}

/**
 * Whether the old copy a re-adopt would point state back at is gone: the new copy is given up
 * only for a resource that is there. A read that fails stops the step with nothing changed.
 */
async function oldCopyGone(
  step: Extract<RollbackStep, { kind: 'reverse-replace' }>,
  services: ReplayServices,
): Promise<boolean> {
  const { before } = step;
  const provider = await services.router.providerFor(before.type, before.provisionedBy);
  try {
    const live = await provider.read(
      {
        logicalId: step.logicalId,
        type: before.type,
        physicalId: before.physicalId,
        properties: before.properties,
      },
      services.context,
    );
    return live === undefined;
  } catch (error) {
    throw new Error(
      `cannot read the old resource ${before.physicalId} to re-adopt it (${messageOf(error)}); nothing was changed`,
      { cause: error },
    );
  }
}

/**
 * The create-first re-create collided on its name: the new copy is deleted first
 * only when it provably holds that name and may be deleted; anything else is a
 * refusal with nothing deleted (spec 000, "On the create-first order").
 */
async function recreateAfterFreeingName(
  step: Extract<RollbackStep, { kind: 'reverse-replace' }>,
  services: ReplayServices,
  collision: unknown,
  recreateName: RecreateName,
): Promise<StepOutcome> {
  const { before, current, logicalId } = step;
  const rule = nameProperty(before.type);
  const given = rule ? readPath(before.properties, rule.path) : undefined;
  // A rewriting type's name is the one the re-create sent, prefix and rewrite applied.
  const name = recreateName.name ?? (typeof given === 'string' ? given : undefined);
  const holding = current
    ? newResourceHoldsName({
        type: before.type,
        newType: current.type,
        name,
        generated: name === undefined,
        generatedNameKnown: false,
        oldProperties: before.properties,
        newResource: current,
      })
    : ({ holds: false, reason: 'the new copy is already gone' } as const);
  const shown = name ?? '(a name cdkd cannot derive)';
  if (holding.holds && step.keepNew) {
    throw new CdkdError('ROLLBACK_NAME_HELD_BY_RETAINED', retainedHolderMessage(logicalId, shown), {
      cause: collision,
    });
  }
  if (!holding.holds || !step.mayFreeName || !current) {
    const warnings = step.warnings.map((warning) => `\nWarning: ${warning}`).join('');
    const message = holding.holds
      ? nameHeldByNewCopyMessage(logicalId, shown)
      : nameCollisionMessage(logicalId, shown);
    throw new CdkdError('ROLLBACK_NAME_COLLISION', `${message}${warnings}`, { cause: collision });
  }
  await deleteRecorded(services, logicalId, current);
  await services.state.removeRecord(logicalId);
  try {
    const recreated = await recreateOnceReleased(logicalId, before, services, recreateName);
    await recordRecreated(logicalId, recreated, services);
    return outcomeOf(
      step,
      `freed the name ${shown} held by the new copy, then re-created the old resource`,
      undefined,
      recreateName,
    );
  } catch (error) {
    throw new Error(
      `the new copy held the name ${shown} and was deleted, but re-creating the old ${before.type} failed, so the resource is absent: ${messageOf(error)}. Run cdkd deploy --fix-forward to fix it forward.`,
      { cause: error },
    );
  }
}

function outcomeOf(
  step: Extract<RollbackStep, { kind: 'reverse-replace' }>,
  done: string,
  survivor: StepOutcome['survivor'],
  name: RecreateName = { kind: 'as-setting' },
): StepOutcome {
  const warnings = step.warnings.map((warning) => `; warning: ${warning}`).join('');
  const named =
    name.kind === 'from-physical-id'
      ? {
          done: `${done}; ${name.note}`,
          ...(name.warning ? { warnings: [`${step.logicalId}: ${name.note}`] } : {}),
        }
      : { done };
  if (!survivor) {
    return succeeded(step.logicalId, `${named.done}; the new copy was deleted${warnings}`, {
      warn: warnings !== '',
      ...(named.warnings ? { warnings: named.warnings } : {}),
    });
  }
  return succeeded(
    step.logicalId,
    `${named.done}; the new copy ${survivor.physicalId} is kept by its UpdateReplacePolicy: Retain and no longer tracked${warnings}`,
    { warn: true, survivor, ...(named.warnings ? { warnings: named.warnings } : {}) },
  );
}

/** The name the old resource's re-create sends (spec 001, "Names of re-created resources"). */
function recreateNameOf(before: ResourceRecord, services: ReplayServices): RecreateName {
  return recreateName({
    type: before.type,
    properties: before.properties,
    physicalId: before.physicalId,
    stackName: services.context.stackName,
    prefix: services.context.prefixUserSuppliedNames === true,
  });
}

/** How long a name the rollback just freed may still read as taken: the waits between re-create attempts. */
const NAME_RELEASE_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000];

/**
 * The re-create after deleting the new copy that held its name: a service may report the
 * name taken a moment longer, so a collision is retried a bounded number of times (spec
 * 000, "falls back to delete-new-first with a bounded name-release retry").
 */
async function recreateOnceReleased(
  logicalId: string,
  before: ResourceRecord,
  services: ReplayServices,
  name: RecreateName,
): Promise<ResourceRecord> {
  for (const delayMs of NAME_RELEASE_DELAYS_MS) {
    try {
      return await recreate(logicalId, before, services, name);
    } catch (error) {
      if (!isNameCollision(error)) throw error;
      await systemClock.sleep(delayMs);
    }
  }
  return recreate(logicalId, before, services, name);
}

/**
 * Re-creates a deleted old resource from its journaled (pre-deploy) record, under the
 * name `name` chooses: one its physical id shows is sent exactly, with no prefix added.
 */
async function recreate(
  logicalId: string,
  before: ResourceRecord,
  services: ReplayServices,
  name: RecreateName,
): Promise<ResourceRecord> {
  const properties = await baselineProperties(before.properties, undefined);
  const resolved = await services.sendable(properties.values);
  const exact = name.kind === 'from-physical-id';
  const sent = exact ? { ...resolved, [prefixedNameProperty(before.type)!]: name.name } : resolved;
  const context = exact ? { ...services.context, prefixUserSuppliedNames: false } : services.context;
  const provider = await services.router.providerFor(before.type, before.provisionedBy);
  const idempotencyToken = randomUUID();
  const request = { logicalId, type: before.type, properties: sent, idempotencyToken };
  const attempts = createAttempts(provider, request, context);
  let result: CreateResult;
  try {
    result = await services.retry(logicalId, attempts);
  } catch (failure) {
    const error = await attempts.settle(failure);
    if (error instanceof ResourceMadeError) throw await undoMadeRecreate(logicalId, before, error, services);
    throw error;
  }
  return {
    ...services.state.withAnswer(logicalId, before, result),
    ...(result.ref ? { ref: result.ref } : {}),
    ...(result.creationIdentity ? { creationIdentity: result.creationIdentity } : {}),
  };
}

/**
 * A re-create that failed after its provider made the resource: what it made is
 * deleted before the failure is reported, unless the old resource's DeletionPolicy
 * keeps it; a kept or undeletable one is named for a person (spec 001, "Edge cases").
 */
async function undoMadeRecreate(
  logicalId: string,
  before: ResourceRecord,
  made: ResourceMadeError,
  services: ReplayServices,
): Promise<Error> {
  const madeId = made.made.physicalId;
  const reason = `re-creating ${logicalId} failed after it made ${madeId}: ${made.message}`;
  const left = { physicalId: madeId, managedBy: before.provisionedBy };
  if (keepsOnRollbackOfCreate(before.deletionPolicy)) {
    return new MadeAndLeft(
      `${reason}; ${madeId} is kept by its DeletionPolicy ${before.deletionPolicy}: delete it by hand`,
      left,
    );
  }
  try {
    await deleteRecorded(services, logicalId, { ...before, physicalId: madeId });
  } catch (error) {
    return new MadeAndLeft(
      `${reason}; deleting it failed too (${messageOf(error)}): delete it by hand`,
      left,
    );
  }
  return new Error(`${reason}; what it made was deleted`);
}

/**
 * Points state at the re-created old resource. Should that save fail, its id is named as a
 * survivor, so `cdkd events` still holds it (the journal records only the id it replaced).
 */
async function recordRecreated(
  logicalId: string,
  recreated: ResourceRecord,
  services: ReplayServices,
): Promise<void> {
  try {
    await services.state.setRecord(logicalId, recreated);
  } catch (error) {
    throw new MadeAndLeft(
      `re-created ${logicalId} as ${recreated.physicalId}, but state could not record it (${messageOf(error)}): it is not tracked; delete it by hand, then run cdkd rollback again`,
      { physicalId: recreated.physicalId, managedBy: recreated.provisionedBy },
    );
  }
}

/**
 * What a failed re-create made and the rollback left in AWS: the failed step names it as a
 * survivor, so `cdkd events` keeps its id and later rollbacks read it as a rollback-orphan record.
 */
class MadeAndLeft extends Error {
  constructor(
    message: string,
    readonly survivor: NonNullable<StepOutcome['survivor']>,
  ) {
    super(message);
  }
}

export function madeAndLeft(error: unknown): MadeAndLeft | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof MadeAndLeft) return cause;
  }
  return undefined;
}

function isNameCollision(error: unknown): boolean {
  return (
    (isCdkdError(error) && error.code === 'NAMED_CREATE_COLLISION') ||
    classifyAwsError(error) === 'already-exists'
  );
}
