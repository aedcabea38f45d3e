import { randomUUID } from 'node:crypto';
import { deleteRecorded } from '../../provider-calls/index.js';
import type { Accepted, ExecutorServices, Learned, PreparedCreate } from './executor-services.js';
import { CdkdError, isCdkdError, messageOf } from '../../errors.js';
import type { PlannedOperation } from '../../plan/index.js';
import { OutcomeUnknownError, ResourceMadeError, type ResourceRequest } from '../../providers/provider.js';
import type { ResourceRecord } from '../../state/index.js';
import { keepsResource } from '../../template/index.js';
import type { ResourceAction } from '../events.js';
import { failureOutcome, MadeThenFailed, storeMade } from './made-outcome.js';
import { replaceResource } from './replace-resource.js';
import { refuseStatefulReplan, replan } from './replan.js';
import { recreateRoutedResource, routedResource } from './resource-evaluation.js';
import { forgetParent, type LostChild } from './lost-children.js';
import { restoreLostChild } from './restore-child.js';
import { moveLine } from '../../providers/routing.js';
import { policies, type OperationDraft } from './observer.js';
import { eventSteps, type StepObserver } from './resource-steps.js';
import { updateFallback } from './update-fallback.js';
import { appliedRecord } from './applied-record.js';
import { maskedSecrets, maskingErrors } from '../../stack-state/index.js';
import { refuseTakenName } from './create-name-refusal.js';
import { recreateRefusedUpdate } from './recreate-refused-update.js';
import { createAttempts } from '../../providers/ambiguous-create.js';
import { createdName } from './created-name.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { CreatedResources } from './created-settle.js';

/**
 * Carries out one planned operation against its provider and records the
 * result in state before it returns, so every resource AWS holds is in state.
 * `release` is called once the provider call has returned: the caller's
 * concurrency slot is free while the state save is still on the way.
 */
export class ResourceExecutor {
  /** Children whose records went with a parent this run deleted to re-create (spec 002). */
  private readonly lostChildren = new Map<string, LostChild>();

  /** Hears each planned operation start and end (the event sink, unless the services name another). */
  private readonly steps: StepObserver;

  /** What this run created that its provider may still be making usable (see `settleCreated`). */
  private readonly created = new CreatedResources();

  constructor(readonly services: ExecutorServices) {
    this.steps = services.steps ?? eventSteps(services.events, services.state);
  }

  /**
   * A parent this run deleted to re-create it: its record and its children's go in one save
   * (see lost-children.ts), and the children are re-created, without a delete, when their turn comes.
   */
  async parentDeleted(logicalId: string, parent: ResourceRecord): Promise<void> {
    for (const [id, child] of await forgetParent(this.services.state, logicalId, parent))
      this.lostChildren.set(id, child);
  }

  async run(op: PlannedOperation, release: () => void = () => {}): Promise<void> {
    const report = (action: ResourceAction, status: 'started' | 'succeeded' | 'skipped', message?: string) =>
      status === 'started'
        ? this.steps.started(op, action, message)
        : this.steps.ended(op, { action, status, ...(message ? { message } : {}) });
    try {
      await this.dispatch(op, report, release);
    } catch (error) {
      this.steps.ended(op, {
        action: op.kind === 'no-op' ? 'update' : op.kind,
        status: 'failed',
        message: messageOf(error),
        ...errorCodeOf(error),
      });
      throw new CdkdError(
        'RESOURCE_FAILED',
        `${op.logicalId} (${op.type}): ${op.kind} failed: ${messageOf(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  private async dispatch(
    op: PlannedOperation,
    report: (action: ResourceAction, status: 'started' | 'succeeded' | 'skipped', message?: string) => void,
    release: () => void,
  ): Promise<void> {
    // Changed or not: a re-created parent took every child's old copy with it (spec 002).
    const lost = this.lostChildren.get(op.logicalId);
    if (lost && op.kind !== 'delete' && !this.services.state.record(op.logicalId)) {
      report('create', 'started', `re-created on ${lost.parent}, which its old copy went with`);
      await restoreLostChild(this, op, lost, release);
      return report('create', 'succeeded');
    }
    switch (op.kind) {
      case 'create':
        report('create', 'started');
        await this.create(op, release);
        return report('create', 'succeeded');
      case 'replace':
        report('replace', 'started');
        await this.replace(op, op.updateReplacePolicy, release);
        return report('replace', 'succeeded');
      case 'update': {
        const kind = await replan(this.services, op);
        if (kind === 'no-op')
          return report('update', 'skipped', 'nothing changed once its references resolved');
        if (kind === 'replace') refuseStatefulReplan(this.services, op);
        report(kind, 'started');
        if (kind === 'replace') {
          await this.replace(op, op.updateReplacePolicy, release);
          return report(kind, 'succeeded');
        }
        const updated = await this.update(op, release);
        return report(updated.kind, 'succeeded', updated.message);
      }
      case 'delete': {
        const record = this.services.state.record(op.logicalId);
        if (!record) return;
        if (keepsResource(record.deletionPolicy ?? op.deletionPolicy)) {
          await this.services.state.removeRecord(op.logicalId);
          return report(
            'retain',
            'succeeded',
            `kept in AWS (DeletionPolicy ${record.deletionPolicy}); no longer tracked`,
          );
        }
        report('delete', 'started');
        await this.deleteJournaled(
          op.logicalId,
          record,
          () => this.services.state.removeRecord(op.logicalId),
          op,
          release,
        );
        return report('delete', 'succeeded');
      }
      case 'no-op': {
        const record = this.services.state.record(op.logicalId);
        if (record && op.propertyHash && record.propertyHash !== op.propertyHash) {
          // A legacy record without a hash: record it now, with no API call (spec 004).
          await this.services.state.setRecord(op.logicalId, { ...record, propertyHash: op.propertyHash });
        }
        return;
      }
    }
  }

  async create(op: PlannedOperation, release: () => void = () => {}): Promise<void> {
    const prepared = await this.prepareCreate(op);
    // One token for every attempt of this create, so a replay after a lost response makes nothing new.
    const idempotencyToken = randomUUID();
    const request = this.request(op, prepared, idempotencyToken);
    const nameFree = await refuseTakenName(this.services, op, prepared, request);
    await this.journaled(
      {
        logicalId: op.logicalId,
        action: 'create',
        type: op.type,
        attempted: prepared.stored,
        idempotencyToken,
        ...createdName(prepared.provider, request, this.services.context),
        // The route this create takes, so a later rollback asks the same provider what it made
        // even when routing has changed since (a type given an SDK provider in between).
        createdVia: prepared.provisionedBy,
        ...policies(op),
      },
      async (onAccepted) => {
        const record = await this.makeResource(op, prepared, idempotencyToken, nameFree, release, onAccepted);
        await storeMade(record, prepared.stored, {
          save: () => this.services.state.setRecord(op.logicalId, record),
          undo: () => void this.services.state.removeRecord(op.logicalId).catch(() => undefined),
        });
        return { physicalId: record.physicalId, after: record };
      },
    );
  }

  async prepareCreate(op: PlannedOperation): Promise<PreparedCreate> {
    const { properties, stored, route } = op.recreateVia
      ? await recreateRoutedResource(this.services, op, op.recreateVia)
      : await routedResource(this.services, op, undefined);
    const sent = await this.services.sendable(properties);
    return { provider: route.provider, provisionedBy: route.provisionedBy, properties, stored, sent };
  }

  request(op: PlannedOperation, prepared: PreparedCreate, idempotencyToken: string): ResourceRequest {
    return { logicalId: op.logicalId, type: op.type, properties: prepared.sent, idempotencyToken };
  }

  /** Creates the resource and returns its record; the caller stores it. */
  async makeResource(
    op: PlannedOperation,
    prepared: PreparedCreate,
    idempotencyToken: string,
    nameFree: boolean,
    release: () => void = () => {},
    onAccepted?: Accepted,
  ): Promise<ResourceRecord> {
    const { provider, provisionedBy, properties, stored } = prepared;
    const request = {
      ...this.request(op, prepared, idempotencyToken),
      ...(nameFree && { nameFree }),
      ...(onAccepted && { onAccepted }),
    };
    const attempts = createAttempts(provider, request, this.services.context);
    const secrets = maskedSecrets(properties, stored);
    try {
      const result = await this.services
        .retry(op.logicalId, maskingErrors(secrets, attempts))
        .catch(async (error: unknown) => {
          throw await attempts.settle(error);
        });
      release();
      this.created.add(provider, {
        logicalId: op.logicalId,
        type: op.type,
        physicalId: result.physicalId,
        properties: prepared.sent,
      });
      return {
        ...appliedRecord(this.services.state, op, result, { stored, properties, provisionedBy }),
        region: this.services.context.region,
        ...(result.creationIdentity ? { creationIdentity: result.creationIdentity } : {}),
      };
    } catch (error) {
      if (error instanceof ResourceMadeError) throw new MadeThenFailed(error, provisionedBy, stored);
      throw error;
    }
  }

  /** Waits until every resource this run created is usable (`Provider.untilUsable`), all at once. */
  settleCreated(): Promise<void> {
    return this.created.settle(this.services.context);
  }

  /** See replace-resource.ts: create-first, or delete-first under --replace or for a re-create. */
  private replace(
    op: PlannedOperation,
    updateReplacePolicy: string | undefined,
    release: () => void,
    recreate = false,
  ): Promise<void> {
    return replaceResource(this, op, updateReplacePolicy, release, recreate);
  }

  /**
   * Tells the observer (the run's journal) of the operation before `apply` sends anything, then
   * its outcome; a failed create that made its resource carries the proof, and one refused on
   * its name before anything was applied is unapplied. `apply` gets what records
   * the request a create was accepted as.
   */
  async journaled(
    draft: OperationDraft,
    apply: (onAccepted: Accepted, learned: Learned) => Promise<Partial<OperationDraft>>,
  ): Promise<void> {
    const observer = this.services.observer;
    const observed = observer ? { entry: await observer.before(draft) } : undefined;
    const learned: Learned = async (fact) => {
      if (observer && observed) await observer.during(observed.entry, fact);
    };
    const onAccepted: Accepted = (acceptedRequest) => learned({ acceptedRequest });
    let outcome: Partial<OperationDraft>;
    try {
      outcome = await apply(onAccepted, learned);
    } catch (error) {
      // Sent, with its answer still to come: the entry stays in flight for cdkd rollback to settle.
      if (error instanceof OutcomeUnknownError) throw error;
      if (observer && observed) {
        const unapplied = refusedOnName(draft, error) || error instanceof RecreateInstead;
        await observer.after(
          observed.entry,
          unapplied ? { status: 'unapplied' } : { status: 'failed', facts: failureOutcome(error) },
        );
      }
      throw error instanceof MadeThenFailed ? error.made.failure : error;
    }
    if (observer && observed) await observer.after(observed.entry, { status: 'completed', facts: outcome });
  }

  /**
   * Updates the resource in place, with the line saying it moved between layers, if it did;
   * `replace` when the update-failure fallback re-created it instead.
   */
  private async update(
    op: PlannedOperation,
    release: () => void,
  ): Promise<{ kind: 'update' | 'replace'; message?: string | undefined }> {
    const recorded = this.services.state.record(op.logicalId)!;
    const { properties, stored, route } = await routedResource(this.services, op, recorded);
    const { provider, provisionedBy } = route;
    const sent = await this.services.sendable(properties);
    try {
      await this.updateJournaled(
        op,
        recorded,
        { provider, provisionedBy, properties, stored, sent },
        release,
      );
      return { kind: 'update', message: moveLine(route, recorded.provisionedBy, op.type) };
    } catch (error) {
      if (!(error instanceof RecreateInstead)) throw error;
      await recreateRefusedUpdate(this, op, error.refusal, release);
      return { kind: 'replace' };
    }
  }

  private async updateJournaled(
    op: PlannedOperation,
    recorded: ResourceRecord,
    { provider, provisionedBy, properties, stored, sent }: PreparedCreate,
    release: () => void,
  ): Promise<void> {
    await this.journaled(
      {
        logicalId: op.logicalId,
        action: 'update',
        type: op.type,
        before: recorded,
        physicalId: recorded.physicalId,
        previousPhysicalId: recorded.physicalId,
        attempted: stored,
        ...policies(op),
      },
      async () => {
        const result = await this.services
          .retry(
            op.logicalId,
            maskingErrors(maskedSecrets(properties, stored), () =>
              provider.update(
                {
                  logicalId: op.logicalId,
                  type: op.type,
                  physicalId: recorded.physicalId,
                  properties: sent,
                  previousProperties: recorded.properties,
                },
                this.services.context,
              ),
            ),
          )
          .catch((error: unknown) => {
            const replace = this.services.replace === true;
            throw updateFallback({ provisionedBy, error, replace }) === 'recreate'
              ? new RecreateInstead(error)
              : error;
          });
        release();
        // Region and creation identity stay those of the resource made; the rest is what was applied now.
        const record: ResourceRecord = {
          ...appliedRecord(this.services.state, op, result, { stored, properties, provisionedBy }),
          ...(recorded.region ? { region: recorded.region } : {}),
          ...(recorded.creationIdentity ? { creationIdentity: recorded.creationIdentity } : {}),
        };
        // A new resource beside the old one: the old is a pending delete until the cleanup phase.
        if (result.oldNeedsDelete) await this.services.state.replaceRecord(op.logicalId, record, recorded);
        else await this.services.state.setRecord(op.logicalId, record);
        return { physicalId: record.physicalId, after: record, verdict: { replacement: false } };
      },
    );
  }

  /**
   * Deletes a recorded resource, journaled before the call is sent, then `forget`s its
   * record: a process killed in between leaves an entry a later command settles by
   * reading the cloud (stale-records.ts).
   */
  async deleteJournaled(
    logicalId: string,
    record: ResourceRecord,
    forget: () => Promise<void>,
    op?: PlannedOperation,
    release: () => void = () => {},
  ): Promise<void> {
    // Sent with the delete (a custom resource's RequestId), so its answer is found after a kill.
    const idempotencyToken = randomUUID();
    await this.journaled(
      {
        logicalId,
        action: 'delete',
        type: record.type,
        before: record,
        physicalId: record.physicalId,
        idempotencyToken,
        ...(op ? policies(op) : {}),
      },
      async () => {
        await this.deleteRecorded(logicalId, record, release, idempotencyToken);
        await forget();
        return {};
      },
    );
  }

  /** Deletes a recorded resource through the provider family that made it. */
  async deleteRecorded(
    logicalId: string,
    record: ResourceRecord,
    release: () => void = () => {},
    idempotencyToken?: string,
  ): Promise<void> {
    await deleteRecorded(this.services, logicalId, record, {
      removeProtection: this.services.removeProtection === true,
      idempotencyToken,
    });
    release();
  }
}

/** An update the provider refused with nothing applied, to be re-created instead (update-fallback.ts). */
class RecreateInstead extends Error {
  constructor(readonly refusal: unknown) {
    super(messageOf(refusal));
  }
}

/** A create its provider refused because another resource holds its explicit name: nothing was applied. */
function refusedOnName(draft: OperationDraft, error: unknown): boolean {
  return draft.action === 'create' && isCdkdError(error) && error.code === 'NAMED_CREATE_COLLISION';
}

/** A failure's code for the event: cdkd's own, else the AWS error's (`--progress events`). */
function errorCodeOf(error: unknown): { errorCode?: string } {
  const code = isCdkdError(error) ? error.code : awsErrorCode(error);
  return code === undefined || code === 'Error' ? {} : { errorCode: code };
}
